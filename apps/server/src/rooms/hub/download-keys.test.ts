import { describe, expect, it } from 'vitest';
import { DownloadKeys } from './download-keys';

const ROOM = '5f0c2b1e-8a47-4c1e-9d1b-3c2a1f0e9d8c';
const OTHER_ROOM = '6a1d3c2f-9b58-4d2f-8e2c-4d3b2a1f0e9d';
const OFFER = '0b8e7d6c-5a4b-4c3d-9e2f-1a0b9c8d7e6f';
const NOW = 1_800_000_000_000;

describe('download keys', () => {
  const keys = new DownloadKeys('download-keys-secret-that-is-long-enough');

  it('holds for its room and offer until it expires', () => {
    const key = keys.issue(ROOM, OFFER, NOW + 60_000);
    expect(keys.check(ROOM, OFFER, key, NOW)).toBe(true);
    expect(keys.check(ROOM, OFFER, key, NOW + 60_000)).toBe(false);
  });

  it('refuses another room, another offer, another secret, or a changed key', () => {
    const key = keys.issue(ROOM, OFFER, NOW + 60_000);
    expect(keys.check(OTHER_ROOM, OFFER, key, NOW)).toBe(false);
    expect(keys.check(ROOM, '1b8e7d6c-5a4b-4c3d-9e2f-1a0b9c8d7e6f', key, NOW)).toBe(false);
    expect(new DownloadKeys('another-secret-that-is-long-enough-too').check(ROOM, OFFER, key, NOW)).toBe(
      false,
    );
    const [expiry, signature] = key.split('.');
    // A later expiry under the same signature, a cut signature, extra parts, or nothing like a key.
    const later = (Number.parseInt(expiry as string, 36) + 3_600_000).toString(36);
    for (const forged of [
      `${later}.${signature}`,
      `${expiry}.${signature?.slice(1)}`,
      `${key}.x`,
      'x'.repeat(200),
      '',
      '.',
    ])
      expect(keys.check(ROOM, OFFER, forged, NOW)).toBe(false);
  });
});
