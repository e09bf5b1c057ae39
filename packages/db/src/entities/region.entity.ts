import { randomUUID } from 'node:crypto';
import { defineEntity, p } from '@mikro-orm/core';
import { everyListChanged } from './room-list-changes';

/** A zone rooms run in; today the single node this server is. Plans name the zones they include by code. */
const RegionSchema = defineEntity({
  name: 'Region',
  tableName: 'regions',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    /** Stable machine name clients send when creating a room, e.g. 'local'. */
    code: p.string().length(32).unique(),
    name: p.string().length(64),
    description: p.string().length(255).default(''),
    /** A disabled zone is hidden from the create dialog; rooms already in it keep working. */
    enabled: p.boolean().default(true),
    sortOrder: p.integer().default(0),
  },
  triggers: [everyListChanged],
});

export class Region extends RegionSchema.class {}
RegionSchema.setClass(Region);
