// What the room browser may be pointed at. The address bar accepts what people type ("example.com",
// "localhost:3000/x") and turns it into a URL; only web pages and the blank page are allowed, so nobody can open
// the server's files (file:), the browser's own pages (chrome:, devtools:) or script URLs from our controls.
import { AppError } from '@rooms/api';

/** Schemes a page must never show, even when a site links to them (checked on every navigation). */
export const BLOCKED_SCHEMES = [
  'file:',
  'chrome:',
  'chrome-untrusted:',
  'chrome-extension:',
  'devtools:',
  'view-source:',
] as const;

// A scheme is letters followed by ':' and not a port: "localhost:3000" is a host, "mailto:x" is a scheme.
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:(?!\d)/i;

/** The URL the address bar means, or AppError BAD_INPUT when it is not an http(s) page or about:blank. */
export function normaliseAddress(input: string): string {
  const text = input.trim();
  if (text === '' || text.toLowerCase() === 'about:blank') return 'about:blank';
  const candidate = HAS_SCHEME.test(text) ? text : `https://${text}`;
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    throw new AppError('BAD_INPUT', { message: 'This address cannot be opened' });
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
    throw new AppError('BAD_INPUT', { message: 'Only http and https addresses can be opened' });
  }
  return url.href;
}

export function isBlockedUrl(url: string): boolean {
  const lower = url.toLowerCase();
  return BLOCKED_SCHEMES.some((scheme) => lower.startsWith(scheme));
}
