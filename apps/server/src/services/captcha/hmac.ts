import { createHmac, timingSafeEqual } from 'node:crypto';

export function hmacHex(key: string | Buffer, message: string): string {
  return createHmac('sha256', key).update(message).digest('hex');
}

/** Compares a computed signature with one a client sent without leaking, through timing, how much matched. */
export function sameSignature(expected: string, received: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(received);
  return a.length === b.length && timingSafeEqual(a, b);
}
