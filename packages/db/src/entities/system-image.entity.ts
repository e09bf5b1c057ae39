import { randomUUID } from 'node:crypto';
import { defineEntity, p } from '@mikro-orm/core';
import { everyListChanged } from './room-list-changes';

/**
 * What a room's browser opens with: a blank page, a video site, or a start address the room supplies
 * ('url' images leave `startUrl` null and the room's own `startUrl` is used).
 */
export const systemImageKinds = ['blank', 'video', 'url'] as const;
export type SystemImageKind = (typeof systemImageKinds)[number];

const SystemImageSchema = defineEntity({
  name: 'SystemImage',
  tableName: 'system_images',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    code: p.string().length(32).unique(),
    name: p.string().length(64),
    description: p.string().length(255).default(''),
    kind: p.enum(systemImageKinds),
    startUrl: p.string().length(2048).nullable(),
    enabled: p.boolean().default(true),
    sortOrder: p.integer().default(0),
  },
  triggers: [everyListChanged],
});

export class SystemImage extends SystemImageSchema.class {}
SystemImageSchema.setClass(SystemImage);
