import { describe, expect, it } from 'vitest';
import { newEmailCode, newSessionToken, sameHash, sha256Hex } from './tokens';

describe('session tokens', () => {
  it('carry 256 random bits in a URL-safe form', () => {
    const tokens = new Set(Array.from({ length: 1000 }, newSessionToken));
    expect(tokens.size).toBe(1000);
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
  it('are stored as a SHA-256 hash', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('e-mail codes', () => {
  it('are six digits, leading zeros kept, spread over the whole range', () => {
    const codes = Array.from({ length: 5000 }, newEmailCode);
    for (const code of codes) expect(code).toMatch(/^\d{6}$/);
    expect(codes.some((code) => code.startsWith('0'))).toBe(true);
    expect(new Set(codes.map((code) => code[0])).size).toBe(10);
  });
});

describe('hash comparison', () => {
  it('tells equal and different hashes apart, whatever their length', () => {
    expect(sameHash(sha256Hex('a'), sha256Hex('a'))).toBe(true);
    expect(sameHash(sha256Hex('a'), sha256Hex('b'))).toBe(false);
    expect(sameHash(sha256Hex('a'), 'abcd')).toBe(false);
  });
});
