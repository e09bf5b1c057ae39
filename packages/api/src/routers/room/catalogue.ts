// What both catalogue calls (zones, images) add beside their items: the caller's plan limits, the room defaults
// and the upgrade hint of spec §6, so the create dialog needs no third call.
import { Plan, planOf, Room } from '@rooms/db';
import type { TContext } from '../../context';
import { ROOM_DEFAULTS } from './room-settings';

export const UPGRADE_HINT = 'Better plans give better parameters and more zones';

export async function catalogueContext(ctx: TContext, userId: string) {
  const plan = await planOf(ctx.em, userId, ctx.services.now());
  const [roomCount, better] = await Promise.all([
    ctx.em.count(Room, { owner: userId }),
    ctx.em.count(Plan, { enabled: true, id: { $ne: plan.id }, priceCents: { $gt: plan.priceCents } }),
  ]);
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
    defaults: { ...ROOM_DEFAULTS },
    upgradeHint: better > 0 ? UPGRADE_HINT : null,
  };
}
