import { randomUUID } from 'node:crypto';
import { defineEntity, p } from '@mikro-orm/core';
import { User } from './user.entity';

/** Room seconds a user spent of their plan's monthly free time quota in one calendar month (UTC). */
const UsageMonthSchema = defineEntity({
  name: 'UsageMonth',
  tableName: 'usage_months',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    /** 'YYYY-MM'. */
    month: p.string().length(7),
    freeUsedSeconds: p.integer().default(0),
  },
  uniques: [{ properties: ['user', 'month'] }],
});

export class UsageMonth extends UsageMonthSchema.class {}
UsageMonthSchema.setClass(UsageMonth);
