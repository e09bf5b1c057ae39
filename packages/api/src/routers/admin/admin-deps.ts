import type { TContext } from '../../context';
import type { TSessionUser } from '../../domains/accounts';
import type { TActor, TAdminDeps } from '../../domains/admin';

/**
 * The administrator behind an admin call, and what the domain functions need from the request. A change passes
 * the reason its input carries (admin.types.ts ZReason): every audit row the call writes records it.
 */
export function adminDeps(
  ctx: TContext & { session: TSessionUser },
  input: { reason?: string } = {},
): TAdminDeps {
  const actor: TActor = {
    id: ctx.session.user.id,
    label: ctx.session.user.email,
    ip: ctx.request.ip,
    reason: input.reason ?? null,
  };
  return {
    em: ctx.em,
    actor,
    now: ctx.services.now(),
    sessionEvents: ctx.services.sessionEvents,
    rooms: ctx.services.rooms,
  };
}
