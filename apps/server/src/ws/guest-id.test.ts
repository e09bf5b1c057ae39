import { describe, expect, it } from 'vitest';
import { GUEST_COOKIE, GuestIds } from './guest-id';

const secret = 'a-secret-that-is-long-enough-for-hmac-keys';

function cookieOf(setCookie: string): string {
  return setCookie.split(';')[0]!;
}

describe('guest ids', () => {
  it('come back from the cookie they were issued in, among other cookies', () => {
    const ids = new GuestIds(secret);
    const { guestId, setCookie } = ids.issue(false);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).not.toContain('Expires');
    expect(ids.fromCookieHeader(`lang=en-US; ${cookieOf(setCookie)}; other=1`)).toBe(guestId);
  });

  it('are refused when forged, tampered with or signed with another secret', () => {
    const ids = new GuestIds(secret);
    const { setCookie } = ids.issue(true);
    expect(setCookie).toContain('Secure');
    const [, value] = cookieOf(setCookie).split('=') as [string, string];
    const [, signature] = value.split('.') as [string, string];
    expect(ids.fromCookieHeader(`${GUEST_COOKIE}=someone-else.${signature}`)).toBeNull();
    expect(new GuestIds(`${secret}-other`).fromCookieHeader(cookieOf(setCookie))).toBeNull();
    expect(ids.fromCookieHeader(`${GUEST_COOKIE}=garbage`)).toBeNull();
    expect(ids.fromCookieHeader(undefined)).toBeNull();
  });
});
