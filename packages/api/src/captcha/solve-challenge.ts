// Solves a self-hosted captcha challenge. Only WebCrypto and TextEncoder, so the same code runs in the browser's
// Web Worker, in Node scripts and in tests; keep Node-only and zod imports out of this file.
import type { TCaptchaChallenge, TCaptchaSolution } from '../schemas/self-hosted-captcha';

const encoder = new TextEncoder();

/**
 * Digests in flight at once. WebCrypto's digest is asynchronous and hops threads, so awaiting one at a time
 * spends most of the time waiting; a small batch roughly halves the solve time in Node and in browsers.
 */
const BATCH_SIZE = 16;

function toHex(bytes: ArrayBuffer): string {
  let hex = '';
  for (const byte of new Uint8Array(bytes)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

function digest(text: string): Promise<ArrayBuffer> {
  return globalThis.crypto.subtle.digest('SHA-256', encoder.encode(text));
}

/** Lowercase hexadecimal SHA-256 of the text's UTF-8 bytes; the server checks proofs with the same function. */
export async function sha256Hex(text: string): Promise<string> {
  return toHex(await digest(text));
}

function fromHex(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

function sameBytes(buffer: ArrayBuffer, target: Uint8Array): boolean {
  const bytes = new Uint8Array(buffer);
  if (bytes.length !== target.length) return false;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] !== target[i]) return false;
  return true;
}

/**
 * Finds the number whose hash matches the challenge and returns the solution to redeem. Returns null when no
 * number in [0, maxnumber] matches (a damaged challenge). Rejects with the signal's reason once it aborts.
 */
export async function solveChallenge(
  challenge: TCaptchaChallenge,
  options: { signal?: AbortSignal } = {},
): Promise<TCaptchaSolution | null> {
  const target = fromHex(challenge.challenge.toLowerCase());
  for (let start = 0; start <= challenge.maxnumber; start += BATCH_SIZE) {
    options.signal?.throwIfAborted();
    const end = Math.min(start + BATCH_SIZE - 1, challenge.maxnumber);
    const pending: Promise<ArrayBuffer>[] = [];
    for (let n = start; n <= end; n++) pending.push(digest(challenge.salt + n));
    const hashes = await Promise.all(pending);
    const found = hashes.findIndex((hash) => sameBytes(hash, target));
    if (found !== -1) {
      return {
        captcha_id: challenge.captcha_id,
        salt: challenge.salt,
        challenge: challenge.challenge,
        signature: challenge.signature,
        number: start + found,
      };
    }
  }
  return null;
}
