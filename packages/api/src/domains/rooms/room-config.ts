import { planOf, type Room } from '@rooms/db';
import type { TContext } from '../../context';
import type { TRoomConfig } from '../../routers/room/get-room-config.types';
import { effectiveSettings } from './room-settings';

/** What a participant's client needs to show and join the room, with the limits in force now. */
export async function roomConfigOf(ctx: TContext, room: Room, isOwner: boolean): Promise<TRoomConfig> {
  const settings = effectiveSettings(room, await planOf(ctx.em, room.owner.id, ctx.services.now()));
  return {
    id: room.id,
    name: room.name,
    state: room.state,
    owner: room.owner.username,
    isOwner,
    isPublic: room.isPublic,
    region: { code: room.region.code, name: room.region.name },
    image: { code: room.image.code, name: room.image.name, kind: room.image.kind },
    ...settings,
    memberCount: ctx.services.presence.memberCount(room.id),
  };
}
