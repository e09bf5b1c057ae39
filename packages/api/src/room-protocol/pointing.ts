// Messages of the `pointer/…` and `reaction/…` domains: members who do not drive show the others where they look
// (a labelled ghost over the picture) and react with a small fixed set of emoji. Neither reaches the room's
// browser; the hub passes them on to the other members and counts them (limits.ts).
import { z } from 'zod';
import { ZMemberId } from './member';

/** The reactions a member may send: a fixed set, so nothing but these can float over everyone's picture. */
export const REACTION_EMOJI = ['👍', '👏', '😂', '❤️', '😮', '🎉', '🤔', '👀'] as const;
export const ZReactionEmoji = z.enum(REACTION_EMOJI);

/** What a member reacting too fast is told, once (RATE_LIMITED about reaction/send; the web translates it). */
export const REACTIONS_TOO_FAST = 'You are sending reactions too fast; wait a few seconds';

/** 0..1 of the shown picture from its top-left corner, as input/pointer's coordinates. */
const ZPicturePoint = z.number().min(0).max(1);

// Client → server

/** Where this member points now; the ghost fades on the others' screens unless another move follows. */
export const ZPointerMove = z.object({ type: z.literal('pointer/move'), x: ZPicturePoint, y: ZPicturePoint });
export const ZReactionSend = z.object({ type: z.literal('reaction/send'), emoji: ZReactionEmoji });

// Server → client

/** To every member but the one pointing. */
export const ZPointerShown = z.object({
  type: z.literal('pointer/shown'),
  memberId: ZMemberId,
  nickname: z.string(),
  x: ZPicturePoint,
  y: ZPicturePoint,
});
/** To every member but the one reacting (whose own page shows it at once). */
export const ZReactionShown = z.object({
  type: z.literal('reaction/shown'),
  memberId: ZMemberId,
  nickname: z.string(),
  emoji: ZReactionEmoji,
});

export type TReactionEmoji = z.infer<typeof ZReactionEmoji>;
export type TPointerShown = z.infer<typeof ZPointerShown>;
export type TReactionShown = z.infer<typeof ZReactionShown>;
