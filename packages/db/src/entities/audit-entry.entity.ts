import { randomUUID } from 'node:crypto';
import { defineEntity, p } from '@mikro-orm/core';
import { User } from './user.entity';

/**
 * One administrator action (issue: admin area): who did what to which target, the values before and after, from
 * where and when. Append-only: the application only inserts, and a trigger in the database refuses updates and
 * deletes, so a log row says what happened even to someone who can run the app's code.
 */
const AuditEntrySchema = defineEntity({
  name: 'AuditEntry',
  tableName: 'audit_entries',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    /** Null for the operator CLI, which acts as the server's owner rather than as an account. */
    actor: () => p.manyToOne(User).nullable().deleteRule('set null').index(),
    /** The actor's e-mail at the time (or 'cli'), kept so the row outlives the account. */
    actorLabel: p.string().length(254),
    /** A dotted name, e.g. 'user.disable', 'plan.update', 'loginLink.use'. */
    action: p.string().length(64).index(),
    /** 'user', 'room', 'plan', 'payment', 'report'. */
    targetType: p.string().length(16),
    targetId: p.string().length(64).index(),
    /** A readable name of the target at the time (an e-mail, a room or plan name). */
    targetLabel: p.string().length(254).default(''),
    before: p.json<Record<string, unknown>>().nullable(),
    after: p.json<Record<string, unknown>>().nullable(),
    /** Why, as the administrator gave it: each change in the admin area has one (not the CLI's, nor a refresh). */
    reason: p.string().length(500).nullable(),
    ip: p.string().length(64).nullable(),
    createdAt: p
      .datetime()
      .onCreate(() => new Date())
      .index(),
  },
  triggers: [
    {
      // Only the actor link may still change: it becomes null when the account is deleted (on delete set null).
      name: 'append_only',
      timing: 'before',
      events: ['update', 'delete'],
      forEach: 'row',
      body: `if tg_op = 'UPDATE' and (to_jsonb(new) - 'actor_id') = (to_jsonb(old) - 'actor_id') then
    return new;
  end if;
  raise exception 'audit entries are append-only'`,
    },
  ],
});

export class AuditEntry extends AuditEntrySchema.class {}
AuditEntrySchema.setClass(AuditEntry);
