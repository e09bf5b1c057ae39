// Single-use keys remembered in PostgreSQL, so a key stays spent across restarts and on every server: captcha
// pass tokens, and room-socket tickets redeemed on whichever gateway a participant reached.
import { createHash } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { OnceStore } from '@rooms/api';
import { UsedOnceKey } from '@rooms/db';

/** Expired keys are swept this often, by whichever claim comes first after it. */
const SWEEP_INTERVAL_MS = 10 * 60_000;

export function createPostgresOnceStore(orm: MikroORM): OnceStore {
  let lastSweep = 0;
  return {
    async claim(key, expiresAt) {
      const em = orm.em.fork();
      const now = new Date();
      if (now.getTime() - lastSweep > SWEEP_INTERVAL_MS) {
        lastSweep = now.getTime();
        await em.nativeDelete(UsedOnceKey, { expiresAt: { $lt: now } });
      }
      try {
        const keyHash = createHash('sha256').update(key).digest('hex');
        await em.insert(UsedOnceKey, { keyHash, usedAt: now, expiresAt });
        return true;
      } catch (error) {
        if (error instanceof UniqueConstraintViolationException) return false;
        throw error;
      }
    },
  };
}
