// The REST compatibility layer: each /api path is a procedure of the tRPC router, so the React client and
// third-party scripts run the very same code. The table is read off the router: a procedure is offered over REST
// when its builder declares a path (`.meta({ rest: { method, path, … } })`, rest-meta.ts), so searching for a path
// lands on its procedure. Besides the documented API's paths, the owner's share settings, members' reports, the
// /serverstate screen's data, the free plan, a purchase's quote, billing notices, an administrator's sign-in link
// and the admin area (/api/admin/<group>/<action>) are offered the same way. A procedure without a path (a
// feature that has not shipped over REST) is reached over tRPC alone.
import type { AnyProcedure, ProcedureType } from '@trpc/server';
import { appRouter } from '../root';
import type { TMeta } from '../trpc';
import type { TRestMeta } from './rest-meta';

export type TRestRoute = Omit<TRestMeta, 'auth'> & {
  /** The procedure's dotted tRPC path as the router names it, e.g. 'room.getRoomList'. */
  procedure: string;
  type: ProcedureType;
  /** Needs the session token in the Authorization header. */
  auth: boolean;
};

/** Every procedure of a router that declares a REST path, in the router's order. */
function restRoutesOf(procedures: Record<string, AnyProcedure>): TRestRoute[] {
  return Object.entries(procedures).flatMap(([procedure, { _def }]) => {
    const rest = (_def.meta as TMeta | undefined)?.rest;
    return rest ? [{ ...rest, auth: rest.auth ?? true, procedure, type: _def.type }] : [];
  });
}

export const restRoutes: readonly TRestRoute[] = restRoutesOf(
  // Keyed by dotted path at run time, whatever the type says.
  appRouter._def.procedures as unknown as Record<string, AnyProcedure>,
);
