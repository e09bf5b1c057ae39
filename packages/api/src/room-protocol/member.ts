// Messages of the `member/…` domain: joining with a nickname, the member list, leaving, kicks and letting a
// removed person back in.
import { z } from 'zod';
import { NICKNAME_MAX_LENGTH } from './limits';
import { ZMediaCodec, ZStreamLayerChoice } from './stream';
import { cleanNickname } from './text';

/** Member ids are per connection: the same account in two tabs is two members (of one person, `personId`). */
export const ZMemberId = z.string().min(1).max(64);

export const ZNickname = z
  .string({ error: 'Please enter your nickname' })
  // Invisible characters are dropped, so 'O\u200Blga' is 'Olga' (and a copy of the owner's name, see RoomHub).
  .overwrite(cleanNickname)
  .trim()
  .min(1, { error: 'Please enter your nickname' })
  .max(NICKNAME_MAX_LENGTH, { error: `A nickname has at most ${NICKNAME_MAX_LENGTH} characters` })
  // Control characters would let a nickname break the layout of the member list and chat.
  .refine((nickname) => !/\p{Cc}/u.test(nickname), { error: 'A nickname cannot contain control characters' });

export const ZMember = z.object({
  id: ZMemberId,
  nickname: z.string(),
  isOwner: z.boolean(),
  /** Joined without an account (from a shared link). */
  isGuest: z.boolean(),
  /**
   * The person behind the seat, the same for every seat of one account (its devices and tabs) or of one guest
   * browser; an opaque id for this run of the room, so lists count people and show one row per person.
   */
  personId: z.string(),
  /** Epoch milliseconds. */
  joinedAt: z.number(),
});

// Client → server

export const ZMemberJoin = z.object({
  type: z.literal('member/join'),
  nickname: ZNickname,
  /**
   * The codecs this participant's browser can decode (WebCodecs gives h264 and opus). The server sends the
   * H.264 + Opus stream to those who list h264, and the JPEG screencast to the rest; older clients send none.
   */
  decoders: z.array(ZMediaCodec).max(8).default(['jpeg']),
  /** The viewer's kept choice of picture layer (stream/choose), so the first picture is already the chosen one. */
  layer: ZStreamLayerChoice.default('auto'),
  /**
   * The client sends stream/ack: the server may then pace the picture to its link and pick its layer. A client
   * that does not (older ones, scripts) is sent everything at once, at its chosen layer.
   */
  acks: z.boolean().default(false),
});
/** Owner only. */
export const ZMemberKick = z.object({ type: z.literal('member/kick'), memberId: ZMemberId });
/** Owner only: removes the member and keeps that person out (account, browser and address) while the room runs. */
export const ZMemberBan = z.object({ type: z.literal('member/ban'), memberId: ZMemberId });
/** Owner only: lets a removed person (member/removals) come back. */
export const ZMemberReadmit = z.object({
  type: z.literal('member/readmit'),
  removalId: z.string().min(1).max(64),
});

// Server → client

/** Sent to the joiner once, with its own id, so it can tell itself apart in the list. */
export const ZMemberList = z.object({
  type: z.literal('member/list'),
  you: ZMemberId,
  members: z.array(ZMember),
});
export const ZMemberJoined = z.object({ type: z.literal('member/joined'), member: ZMember });
export const ZMemberLeft = z.object({
  type: z.literal('member/left'),
  memberId: ZMemberId,
  reason: z.enum(['left', 'kicked']),
});
/** To the kicked member, just before its socket closes. */
export const ZMemberKicked = z.object({ type: z.literal('member/kicked') });

/** Someone the owner removed, kept out (by account and guest browser) until the room stops or the owner relents. */
export const ZRemovedMember = z.object({
  id: z.string(),
  nickname: z.string(),
  isGuest: z.boolean(),
  /** Epoch milliseconds. */
  removedAt: z.number(),
});
/** To the owner's seats, on joining and whenever it changes: who was removed and may be let back in. */
export const ZMemberRemovals = z.object({
  type: z.literal('member/removals'),
  removed: z.array(ZRemovedMember),
});

export type TMember = z.infer<typeof ZMember>;
export type TRemovedMember = z.infer<typeof ZRemovedMember>;
