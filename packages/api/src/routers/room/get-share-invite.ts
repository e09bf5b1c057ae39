// Who invites to a shared room, shown above its password field: the room's name and its owner's name, nothing
// more (no remark, state, zone or people inside before the password). By id only, as share links carry it: a
// room's name cannot be tried out here, and its id is a random UUID.

import { findRoomById } from '../../domains/rooms';
import { publicProcedure } from '../../trpc';
import { ZShareInvite, ZShareInviteRequest } from './share.types';

export const getShareInvite = publicProcedure
  .meta({
    summary:
      'The name of a room shared by link and its owner’s name, to show before its password is asked; null for a room that is not shared (missing, or private without a password). No login needed.',
  })
  .input(ZShareInviteRequest)
  .output(ZShareInvite.nullable())
  .query(async ({ ctx, input }) => {
    const room = await findRoomById(ctx.em, input.id);
    // A private room without a password is its owner's alone: it answers as a missing one.
    if (!room || (!room.isPublic && !room.password)) return null;
    return { name: room.name, owner: room.owner.username };
  });
