import { describe, expect, it } from 'vitest';
import { originAllowed } from './socket-auth';

describe('the Origin check', () => {
  const publicUrl = 'https://rooms.example.com';

  it('accepts our public origin and the host the browser addressed', () => {
    expect(originAllowed('https://rooms.example.com', 'internal:3000', publicUrl)).toBe(true);
    expect(originAllowed('http://localhost:5173', 'localhost:5173', publicUrl)).toBe(true);
  });

  it('refuses other sites, look-alikes and garbage', () => {
    expect(originAllowed('https://evil.example', 'rooms.example.com', publicUrl)).toBe(false);
    expect(originAllowed('http://rooms.example.com', 'other:1', publicUrl)).toBe(false);
    expect(originAllowed('https://rooms.example.com.evil.example', undefined, publicUrl)).toBe(false);
    expect(originAllowed('null', 'rooms.example.com', publicUrl)).toBe(false);
  });
});
