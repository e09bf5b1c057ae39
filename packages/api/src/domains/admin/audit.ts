// The audit log: one row per administrator action, written in the same transaction as the action itself, so an
// action that happened is always in the log and a logged action always happened.
import type { EntityManager } from '@mikro-orm/postgresql';
import { AuditEntry, User } from '@rooms/db';
import { keysetPage, keysetWhere, type TKeyset } from './keyset';

/** Who acts: an administrator's own session, or the operator CLI (no account). */
export interface TActor {
  id: string | null;
  /** The administrator's e-mail, or 'cli'. */
  label: string;
  ip: string | null;
  /**
   * Why the administrator acts, as typed in the action's dialog (admin.types.ts ZReason): every row the call writes
   * carries it, the rows of what the action sets off too (a report resolved by disabling the owner). The operator
   * CLI gives none.
   */
  reason?: string | null;
}

export const CLI_ACTOR: TActor = { id: null, label: 'cli', ip: null };

export interface TAuditRecord {
  action: string;
  targetType: 'user' | 'room' | 'plan' | 'payment' | 'report';
  targetId: string;
  targetLabel?: string;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  reason?: string | null;
}

/** Adds the row to `em`'s unit of work; the caller's flush (or transaction) writes it with the action. */
export function recordAudit(em: EntityManager, actor: TActor, record: TAuditRecord): AuditEntry {
  return em.create(AuditEntry, {
    actor: actor.id ? em.getReference(User, actor.id) : null,
    actorLabel: actor.label.slice(0, 254),
    action: record.action,
    targetType: record.targetType,
    targetId: record.targetId,
    targetLabel: (record.targetLabel ?? '').slice(0, 254),
    before: record.before ?? null,
    after: record.after ?? null,
    reason: record.reason ?? actor.reason ?? null,
    ip: actor.ip?.slice(0, 64) ?? null,
  });
}

export interface TAuditFilter extends TKeyset {
  action?: string;
  actor?: string;
  targetId?: string;
  since?: Date;
  until?: Date;
}

/** Newest first, filtered; `actor` matches part of the administrator's e-mail. */
export async function auditEntries(em: EntityManager, filter: TAuditFilter) {
  const where: Record<string, unknown>[] = [];
  if (filter.action) where.push({ action: { $ilike: `%${escapeLike(filter.action)}%` } });
  if (filter.actor) where.push({ actorLabel: { $ilike: `%${escapeLike(filter.actor)}%` } });
  if (filter.targetId) where.push({ targetId: filter.targetId });
  if (filter.since) where.push({ createdAt: { $gte: filter.since } });
  if (filter.until) where.push({ createdAt: { $lt: filter.until } });
  const after = keysetWhere(filter.cursor, 'createdAt');
  if (after) where.push(after);
  const rows = await em.find(AuditEntry, where.length ? { $and: where } : {}, {
    orderBy: { createdAt: 'desc', id: 'desc' },
    limit: filter.limit + 1,
  });
  return keysetPage(rows, filter.limit, (row) => row.createdAt);
}

/** `%` and `_` typed into a search box mean themselves. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}
