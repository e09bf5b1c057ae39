// Messages of the `control/…` domain: who drives the browser and the raise-hand queue.
// Rules (enforced by the server): the owner starts as controller; a member requests control and waits in the
// queue in order; the controller or the owner grants it to a member; the controller releases it (it passes to the
// head of the queue); the owner takes it back at any time. With nobody in control, a request is granted at once.
import { z } from 'zod';
import { ZMemberId } from './member';

// Client → server

export const ZControlRequest = z.object({ type: z.literal('control/request') });
export const ZControlCancel = z.object({ type: z.literal('control/cancel') });
export const ZControlGrant = z.object({ type: z.literal('control/grant'), memberId: ZMemberId });
export const ZControlRelease = z.object({ type: z.literal('control/release') });
/** Owner only. */
export const ZControlTake = z.object({ type: z.literal('control/take') });

// Server → client

/**
 * What changed control and who did it, so a driver who lost it can be told why (the owner took it back, it was
 * given to someone, they let go, or left). `left` names the member who left.
 */
export const ZControlChange = z.object({
  action: z.enum(['joined', 'left', 'request', 'cancel', 'grant', 'release', 'take']),
  byId: ZMemberId,
});
export type TControlChange = z.infer<typeof ZControlChange>;

/** Sent to everyone on every change (with what changed it), and to each joiner (without). */
export const ZControlState = z.object({
  type: z.literal('control/state'),
  controllerId: ZMemberId.nullable(),
  /** Members waiting for control, first come first. */
  queue: z.array(ZMemberId),
  change: ZControlChange.optional(),
});

export type TControlState = z.infer<typeof ZControlState>;
