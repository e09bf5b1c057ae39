// The web addresses in a chat message, so the panel can make them links. Only what starts with http:// or
// https:// is one (never javascript:, data: or anything else a page could run); the link shows the address as it
// was written, in full, and punctuation that ends a sentence around it stays text.

export type TChatSegment = { text: string; href?: undefined } | { text: string; href: string };

const ADDRESS = /\bhttps?:\/\/[^\s<>"'`]+/gi;
/** Characters that end a sentence more often than an address. */
const TRAILING = /[.,;:!?'"”’»]$/;
const CLOSERS: Record<string, string> = { ')': '(', ']': '[', '}': '{' };

const count = (text: string, character: string) => text.split(character).length - 1;

/** A closing bracket is the address's own only when the address opened one (Wikipedia's "(disambiguation)"). */
function trimEnd(candidate: string): string {
  let address = candidate;
  for (;;) {
    const last = address.at(-1) ?? '';
    const opener = CLOSERS[last];
    const unopened = opener !== undefined && count(address, opener) < count(address, last);
    if (!TRAILING.test(last) && !unopened) return address;
    address = address.slice(0, -1);
  }
}

/** The link for an address, or null when it is not a web address after all. */
export function webLink(address: string): string | null {
  try {
    const url = new URL(address);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** The message as text and links, in order; joined, the segments' texts are the message. */
export function chatSegments(text: string): TChatSegment[] {
  const segments: TChatSegment[] = [];
  let at = 0;
  for (const match of text.matchAll(ADDRESS)) {
    const address = trimEnd(match[0]);
    const href = webLink(address);
    if (!href) continue;
    if (match.index > at) segments.push({ text: text.slice(at, match.index) });
    segments.push({ text: address, href });
    at = match.index + address.length;
  }
  if (at < text.length) segments.push({ text: text.slice(at) });
  return segments;
}
