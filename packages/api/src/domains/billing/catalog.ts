// The plan catalogue as people and the REST API see it: rows of the plans table (operators edit them), offered
// when enabled, in their sort order; and what the create-room dialog's catalogue calls (zones, images) add beside
// their items: the caller's plan limits, the room defaults and the upgrade hint; and those zones and images.
import type { EntityManager } from '@mikro-orm/postgresql';
import { Plan, planOf, Region, Room, SystemImage } from '@rooms/db';
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

/** The zones rooms can be created in, each flagged by whether the caller's plan allows it, with the context. */
export async function zoneCatalog(em: EntityManager, userId: string, now: Date) {
  const context = await catalogContext(em, userId, now);
  const regions = await em.find(Region, { enabled: true }, { orderBy: { sortOrder: 'asc', code: 'asc' } });
  return {
    ...context,
    regions: regions.map((region) => ({
      code: region.code,
      name: region.name,
      description: region.description,
      allowed: context.plan.regionCodes.includes(region.code),
    })),
  };
}

/** The system images a room can run, with the context. */
export async function imageCatalog(em: EntityManager, userId: string, now: Date) {
  const context = await catalogContext(em, userId, now);
  const images = await em.find(
    SystemImage,
    { enabled: true },
    { orderBy: { sortOrder: 'asc', code: 'asc' } },
  );
  return {
    ...context,
    // Plans do not restrict images yet; the flag keeps the shape of the zone catalogue for when they do.
    images: images.map((image) => ({
      code: image.code,
      name: image.name,
      description: image.description,
      kind: image.kind,
      startUrl: image.startUrl ?? null,
      allowed: true,
    })),
  };
}
