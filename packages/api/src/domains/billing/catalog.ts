// The plan catalogue as people and the REST API see it: rows of the plans table (operators edit them), offered
// when enabled, in their sort order; and what the create-room dialog's catalogue calls (zones, images) add beside
// their items: the caller's plan limits, the room defaults and the upgrade hint.
import type { EntityManager } from '@mikro-orm/postgresql';
import { Plan, planOf, Room } from '@rooms/db';
import type { TPlanView } from '../../routers/pay/pay.types';
import type { TPlanLimits } from '../../routers/room/plan-limits.types';
import { ROOM_DEFAULTS, streamDefaultsFor } from '../rooms/room-settings';
import { toDollars } from './money';

export type { TPlanLimits, TPlanView };

/** What a room on a plan may be and do: the one projection of a plan's limits, which every view of a plan spreads. */
export function planLimits(plan: Plan): TPlanLimits {
  return {
    maxRooms: plan.maxRooms,
    maxConnections: plan.maxConnections,
    maxWidth: plan.maxWidth,
    maxHeight: plan.maxHeight,
    maxFrameRate: plan.maxFrameRate,
    maxBitrateKbps: plan.maxBitrateKbps,
    regionCodes: [...plan.regionCodes],
    canConfigureAutoClose: plan.canConfigureAutoClose,
    persistentStorage: plan.persistentStorage,
  };
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
    ...planLimits(plan),
    timeQuotaMinutes: plan.timeQuotaMinutes,
    freeTimeQuotaMinutes: plan.freeTimeQuotaMinutes,
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

/** Shown in the create dialog when a plan better than the caller's is on offer. */
export const UPGRADE_HINT = 'Better plans give better parameters and more zones';

function improvesOn(other: Plan, plan: Plan): boolean {
  return (
    other.maxRooms > plan.maxRooms ||
    other.maxConnections > plan.maxConnections ||
    other.maxWidth * other.maxHeight > plan.maxWidth * plan.maxHeight ||
    other.maxFrameRate > plan.maxFrameRate ||
    other.maxBitrateKbps > plan.maxBitrateKbps ||
    other.regionCodes.some((code) => !plan.regionCodes.includes(code)) ||
    (other.canConfigureAutoClose && !plan.canConfigureAutoClose) ||
    (other.persistentStorage && !plan.persistentStorage)
  );
}

/**
 * What both catalogue calls (zones, images) return beside their items: the caller's plan limits, the defaults a
 * new room starts from on that plan, and the upgrade hint, so the create dialog needs no third call.
 */
export async function catalogContext(em: EntityManager, userId: string, now: Date) {
  const plan = await planOf(em, userId, now);
  const [roomCount, offered] = await Promise.all([
    em.count(Room, { owner: userId }),
    em.find(Plan, { enabled: true, id: { $ne: plan.id } }),
  ]);
  // Better means better parameters or more zones, not merely dearer: a yearly Pro is no upgrade on a monthly one.
  const better = offered.filter((other) => improvesOn(other, plan)).length;
  return {
    plan: { code: plan.code, name: plan.name, roomCount, ...planLimits(plan) },
    defaults: { ...ROOM_DEFAULTS, ...streamDefaultsFor(plan) },
    upgradeHint: better > 0 ? UPGRADE_HINT : null,
  };
}
