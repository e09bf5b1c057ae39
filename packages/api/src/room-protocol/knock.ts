// Messages of the `knock/…` domain: someone with the room's knock link asks to be let in. Their socket (a knock
// ticket's) sends member/join as anyone's does, and waits: the owner and the members the owner trusts to let people
// in are told who knocks (knock/pending) and admit or turn away (knock/answer). An admitted knocker is told so with
// a pass for their later tickets (knock/admitted) and joins at once; one turned away is refused (KNOCK_TURNED_AWAY).
import { z } from 'zod';
import { ZMemberId } from './member';

/** Knocks waiting at once in one room; more are refused (TOO_MANY_KNOCKS) until some are answered. */
export const KNOCKS_PENDING_MAX = 20;
/** How long a knock waits for an answer before the knocker is told nobody answered (KNOCK_UNANSWERED). */
export const KNOCK_WAIT_MS = 10 * 60_000;

export const ZKnockId = z.string().min(1).max(64);

export const ZKnock = z.object({
  id: ZKnockId,
  nickname: z.string(),
  /** Knocking without an account. */
  isGuest: z.boolean(),
  /** Epoch milliseconds. */
  at: z.number(),
});
export type TKnock = z.infer<typeof ZKnock>;

// Client → server

/** The owner or a trusted member: let the knocker in (`admit`) or turn them away. */
export const ZKnockAnswer = z.object({
  type: z.literal('knock/answer'),
  knockId: ZKnockId,
  admit: z.boolean(),
});
/** Owner only: trust a member to answer knocks, or no longer. */
export const ZKnockTrust = z.object({
  type: z.literal('knock/trust'),
  memberId: ZMemberId,
  trusted: z.boolean(),
});

// Server → client

/** To the knocker: the knock is heard, and waits for an answer. */
export const ZKnockWaiting = z.object({ type: z.literal('knock/waiting'), id: ZKnockId });
/**
 * To the knocker, just before member/list: let in. `pass` goes with the page's later tickets (POST /ws/ticket,
 * `admission`), so a reconnect or the room's restart lets them back without knocking again.
 */
export const ZKnockAdmitted = z.object({ type: z.literal('knock/admitted'), pass: z.string() });
/** To the owner and trusted members: every knock waiting now (an empty list once none is). */
export const ZKnockPending = z.object({ type: z.literal('knock/pending'), knocks: z.array(ZKnock) });
/** To everyone: the members the owner trusts to answer knocks. */
export const ZKnockTrusted = z.object({ type: z.literal('knock/trusted'), memberIds: z.array(ZMemberId) });
