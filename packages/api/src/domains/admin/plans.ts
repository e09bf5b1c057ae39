// Editing the plan catalogue. Prices and limits are data, not code, so this is the operator's screen for them;
// a change applies to the next purchase and the next room start, never to a period already paid for.
import type { EntityManager } from '@mikro-orm/postgresql';
import { Plan, Subscription } from '@rooms/db';
import { AppError } from '../../errors';
import { planView, type TPlanView, toCents } from '../billing';
import { recordAudit, type TActor } from './audit';

export interface TAdminPlanView extends TPlanView {
  enabled: boolean;
  sortOrder: number;
  isDefault: boolean;
  subscribers: number;
}

async function subscriberCounts(em: EntityManager, now: Date): Promise<Map<string, number>> {
  const rows = await em.execute<{ plan_id: string; holders: string }[]>(
    `select plan_id, count(distinct user_id) as holders from subscriptions
     where starts_at <= ? and (expires_at is null or expires_at > ?) group by plan_id`,
    [now, now],
  );
  return new Map(rows.map((row) => [row.plan_id, Number(row.holders)]));
}

function adminPlanView(plan: Plan, subscribers: Map<string, number>): TAdminPlanView {
  return {
    ...planView(plan),
    enabled: plan.enabled,
    sortOrder: plan.sortOrder,
    isDefault: plan.isDefault,
    subscribers: subscribers.get(plan.id) ?? 0,
  };
}

/** Every plan, offered or not, in the order the plan list shows them. */
export async function adminPlans(em: EntityManager, now: Date): Promise<TAdminPlanView[]> {
  const [plans, subscribers] = await Promise.all([
    em.find(Plan, {}, { orderBy: { sortOrder: 'asc', priceCents: 'asc' } }),
    subscriberCounts(em, now),
  ]);
  return plans.map((plan) => adminPlanView(plan, subscribers));
}

export interface TPlanChange {
  id: string;
  name: string;
  description: string;
  /** Dollars. */
  price: number;
  inventory: number | null;
  maxRooms: number;
  maxConnections: number;
  maxWidth: number;
  maxHeight: number;
  maxFrameRate: number;
  maxBitrateKbps: number;
  timeQuotaMinutes: number;
  freeTimeQuotaMinutes: number;
  enabled: boolean;
  sortOrder: number;
}

const EDITABLE = [
  'name',
  'description',
  'priceCents',
  'inventory',
  'maxRooms',
  'maxConnections',
  'maxWidth',
  'maxHeight',
  'maxFrameRate',
  'maxBitrateKbps',
  'timeQuotaMinutes',
  'freeTimeQuotaMinutes',
  'enabled',
  'sortOrder',
] as const;

export async function updatePlan(
  deps: { em: EntityManager; actor: TActor; now: Date },
  change: TPlanChange,
): Promise<TAdminPlanView> {
  const { em } = deps;
  const plan = await em.findOne(Plan, change.id);
  if (!plan) throw new AppError('PLAN_NOT_FOUND');
  const priceCents = toCents(change.price);
  if (priceCents === null) throw new AppError('BAD_INPUT', { message: 'The price must be in whole cents' });
  if (plan.isDefault && !change.enabled) throw new AppError('PLAN_DEFAULT_DISABLED');
  if (plan.isDefault && priceCents !== 0) {
    throw new AppError('BAD_INPUT', { message: 'The free plan is claimed, not bought: its price stays 0' });
  }
  // Names are what people choose a plan by (the plan list, the grant dialog): two alike cannot be told apart.
  const sameName = await em.count(Plan, {
    id: { $ne: plan.id },
    name: { $ilike: change.name.trim().replace(/[\\%_]/g, '\\$&') },
  });
  if (sameName > 0) throw new AppError('PLAN_NAME_TAKEN');

  const next = { ...change, priceCents };
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  for (const key of EDITABLE) {
    if (plan[key] === next[key]) continue;
    before[key] = plan[key];
    after[key] = next[key];
  }
  Object.assign(plan, Object.fromEntries(EDITABLE.map((key) => [key, next[key]])));
  if (Object.keys(after).length) {
    recordAudit(em, deps.actor, {
      action: 'plan.update',
      targetType: 'plan',
      targetId: plan.id,
      targetLabel: plan.name,
      before,
      after,
    });
  }
  await em.flush();
  const holders = await em.count(Subscription, {
    plan: plan.id,
    startsAt: { $lte: deps.now },
    $or: [{ expiresAt: null }, { expiresAt: { $gt: deps.now } }],
  });
  return adminPlanView(plan, new Map([[plan.id, holders]]));
}
