// The plan catalogue as people and the REST API see it: rows of the plans table (operators edit them), offered
// when enabled, in their sort order.
import type { EntityManager } from '@mikro-orm/postgresql';
import { Plan } from '@rooms/db';
import { toDollars } from './money';

export interface TPlanView {
  id: string;
  code: string;
  name: string;
  description: string;
  /** Dollars. */
  price: number;
  /** Null: permanent (the Free plan). */
  durationDays: number | null;
  permanent: boolean;
  /** Copies left; null when unlimited. */
  inventory: number | null;
  soldOut: boolean;
  isFree: boolean;
  /** Above 1 shows as VIP. */
  level: number;
  maxRooms: number;
  maxConnections: number;
  maxWidth: number;
  maxHeight: number;
  maxFrameRate: number;
  maxBitrateKbps: number;
  regionCodes: string[];
  timeQuotaMinutes: number;
  freeTimeQuotaMinutes: number;
  canConfigureAutoClose: boolean;
  persistentStorage: boolean;
}

export function planView(plan: Plan): TPlanView {
  return {
    id: plan.id,
    code: plan.code,
    name: plan.name,
    description: plan.description,
    price: toDollars(plan.priceCents),
    durationDays: plan.durationDays ?? null,
    permanent: plan.durationDays == null,
    inventory: plan.inventory ?? null,
    soldOut: plan.inventory === 0,
    isFree: plan.isDefault,
    level: plan.level,
    maxRooms: plan.maxRooms,
    maxConnections: plan.maxConnections,
    maxWidth: plan.maxWidth,
    maxHeight: plan.maxHeight,
    maxFrameRate: plan.maxFrameRate,
    maxBitrateKbps: plan.maxBitrateKbps,
    regionCodes: [...plan.regionCodes],
    timeQuotaMinutes: plan.timeQuotaMinutes,
    freeTimeQuotaMinutes: plan.freeTimeQuotaMinutes,
    canConfigureAutoClose: plan.canConfigureAutoClose,
    persistentStorage: plan.persistentStorage,
  };
}

export function offeredPlans(em: EntityManager): Promise<Plan[]> {
  return em.find(Plan, { enabled: true }, { orderBy: { sortOrder: 'asc', priceCents: 'asc' } });
}

export async function defaultPlan(em: EntityManager): Promise<Plan> {
  const plan = await em.findOne(Plan, { isDefault: true }, { orderBy: { sortOrder: 'asc' } });
  if (!plan) throw new Error('No default plan in the database: the seeders have not run');
  return plan;
}
