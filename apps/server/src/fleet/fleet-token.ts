// How the processes of one install recognise one another: the control plane calling an agent, a gateway
// forwarding a participant to one. A bearer token derived from the shared app secret (a key of its own, so it
// can never pass for another signed value of the app); agents listen on the private network, never the public.
import { createHmac, timingSafeEqual } from 'node:crypto';

export function fleetToken(appSecret: string): string {
  return createHmac('sha256', appSecret).update('fleet-internal/v1').digest('base64url');
}

/** Whether an Authorization header carries the install's fleet token. */
export function isFleetCaller(authorization: string | undefined, token: string): boolean {
  const given = Buffer.from(authorization?.replace(/^Bearer\s+/i, '') ?? '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
