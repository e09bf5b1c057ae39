import { randomUUID } from 'node:crypto';
import { defineEntity, p } from '@mikro-orm/core';

/**
 * A subscription plan and the limits it puts on its holder's rooms (how many, how many people, picture and
 * time). The limits, prices and time quotas live here as data, so an operator can change them without a release.
 */
const PlanSchema = defineEntity({
  name: 'Plan',
  tableName: 'plans',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    code: p.string().length(32).unique(),
    name: p.string().length(64),
    description: p.string().length(255).default(''),
    priceCents: p.integer().default(0),
    /** How long one purchase lasts; null for a plan that never expires (the Free plan). */
    durationDays: p.integer().nullable(),
    /** Copies left to sell; null for unlimited, 0 for sold out. */
    inventory: p.integer().nullable(),
    maxRooms: p.integer(),
    maxConnections: p.integer(),
    maxWidth: p.integer(),
    maxHeight: p.integer(),
    maxFrameRate: p.integer(),
    maxBitrateKbps: p.integer(),
    /** Codes of the regions this plan may create rooms in. */
    regionCodes: p.array().default([]),
    /** Room minutes each period grants: every purchase and renewal, and the Free plan's once, when claimed. */
    timeQuotaMinutes: p.integer().default(0),
    /** Room minutes granted every calendar month (UTC) to whoever holds the plan; spent before the time quota. */
    freeTimeQuotaMinutes: p.integer().default(0),
    /** The holder's account level while the plan is held: above 1 shows as VIP. */
    level: p.integer().default(1),
    canConfigureAutoClose: p.boolean().default(false),
    persistentStorage: p.boolean().default(false),
    /** The plan everyone holds without a live subscription (Free); exactly one row should carry it. */
    isDefault: p.boolean().default(false),
    /** Offered in the plan list. */
    enabled: p.boolean().default(true),
    sortOrder: p.integer().default(0),
  },
  // The database itself refuses to sell a copy that is not there, whatever a caller does.
  checks: [
    { name: 'plans_inventory_check', expression: 'inventory >= 0' },
    { name: 'plans_price_cents_check', expression: 'price_cents >= 0' },
  ],
});

export class Plan extends PlanSchema.class {}
PlanSchema.setClass(Plan);
