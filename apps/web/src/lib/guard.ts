// The route guard: a logged-out visitor goes to login carrying the full wanted path.
import { redirect } from '@tanstack/react-router';
import { isLoggedIn } from './session';

export function requireLogin({ location }: { location: { href: string } }): void {
  if (!isLoggedIn())
    throw redirect({ to: '/auth/login', search: { redirect: location.href }, replace: true });
}

/** Login and registration go to the dashboard when the visitor is already logged in. */
export function redirectIfLoggedIn(): void {
  if (isLoggedIn()) throw redirect({ to: '/dashboard', replace: true });
}
