// The notices billing leaves for an account's owner (rooms stopped, a plan renewed or lapsed), read on their next
// visit and dismissed once seen.
import type { EntityManager } from '@mikro-orm/postgresql';
import { BillingNotice } from '@rooms/db';

export function unreadNotices(em: EntityManager, userId: string): Promise<BillingNotice[]> {
  return em.find(BillingNotice, { user: userId, readAt: null }, { orderBy: { createdAt: 'asc' }, limit: 20 });
}

export function markNoticesRead(
  em: EntityManager,
  userId: string,
  ids: string[],
  now: Date,
): Promise<number> {
  return em.nativeUpdate(BillingNotice, { user: userId, id: { $in: ids }, readAt: null }, { readAt: now });
}
