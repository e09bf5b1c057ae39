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

/** Sent to everyone on every change, and to each joiner. */
export const ZControlState = z.object({
  type: z.literal('control/state'),
  controllerId: ZMemberId.nullable(),
  /** Members waiting for control, first come first. */
  queue: z.array(ZMemberId),
});

export type TControlState = z.infer<typeof ZControlState>;
