import { appCodeOf, isAppError } from './trpc';

/** The e-mail code's cooldown: a new code may be requested every 60 seconds. */
export const CODE_COOLDOWN_SECONDS = 60;

/** The seconds left when the server refused a code for coming too soon ('Please wait {0} seconds …'). */
export function cooldownFromError(error: unknown): number | null {
  if (!isAppError(error) || appCodeOf(error) !== 'CODE_COOLDOWN') return null;
  const seconds = Number(/(\d+)/.exec(error.message)?.[1]);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : CODE_COOLDOWN_SECONDS;
}

/** After a successful password reset the screen waits 2000 ms, then goes to login. */
export const RESET_REDIRECT_DELAY_MS = 2000;
