import { defineEntity, p } from '@mikro-orm/core';

/**
 * A single-use key recorded the first time it is spent, so a second use is refused on every server: captcha
 * pass tokens, and room-socket tickets (`room-ticket:<nonce>`) spent on whichever gateway a participant reached.
 * Kept until it would have expired anyway.
 */
const UsedOnceKeySchema = defineEntity({
  name: 'UsedOnceKey',
  tableName: 'used_once_keys',
  properties: {
    /** SHA-256 of the key, hex: bounded in length, and a leaked table holds nothing usable. */
    keyHash: p.string().length(512).primary(),
    usedAt: p.datetime().onCreate(() => new Date()),
    expiresAt: p.datetime(),
  },
});

export class UsedOnceKey extends UsedOnceKeySchema.class {}
UsedOnceKeySchema.setClass(UsedOnceKey);
