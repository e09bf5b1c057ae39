// What both catalogue calls (zones, images) add beside their items: the caller's plan limits, the room defaults
// and the upgrade hint of spec §6, so the create dialog needs no third call.
import { Plan, planOf, Room } from '@rooms/db';
import type { TContext } from '../../context';
import { ROOM_DEFAULTS, streamDefaultsFor } from './room-settings';

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

export async function catalogueContext(ctx: TContext, userId: string) {
  const plan = await planOf(ctx.em, userId, ctx.services.now());
  const [roomCount, offered] = await Promise.all([
    ctx.em.count(Room, { owner: userId }),
    ctx.em.find(Plan, { enabled: true, id: { $ne: plan.id } }),
  ]);
  // Better means better parameters or more zones, not merely dearer: a yearly Pro is no upgrade on a monthly one.
  const better = offered.filter((other) => improvesOn(other, plan)).length;
  return {
    plan: {
      code: plan.code,
      name: plan.name,
      maxRooms: plan.maxRooms,
      roomCount,
      maxConnections: plan.maxConnections,
      maxWidth: plan.maxWidth,
      maxHeight: plan.maxHeight,
      maxFrameRate: plan.maxFrameRate,
      maxBitrateKbps: plan.maxBitrateKbps,
      regionCodes: [...plan.regionCodes],
      canConfigureAutoClose: plan.canConfigureAutoClose,
      persistentStorage: plan.persistentStorage,
    },
    defaults: { ...ROOM_DEFAULTS, ...streamDefaultsFor(plan) },
    upgradeHint: better > 0 ? UPGRADE_HINT : null,
  };
}
