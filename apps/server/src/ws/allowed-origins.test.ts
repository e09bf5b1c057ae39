import { describe, expect, it } from 'vitest';
import { parseEnv } from '../env';
import { allowedOrigins } from './allowed-origins';

const base = { APP_SECRET: 'o'.repeat(40), DATA_DIR: '/tmp/rooms-origins-test' };

describe('the Origin check', () => {
  it('accepts the configured public and share addresses, and nothing else', () => {
    const allowed = allowedOrigins(
      parseEnv({ ...base, PUBLIC_URL: 'https://rooms.example.com', SHARE_URL: 'https://share.example.com/' }),
    );
    expect(allowed('https://rooms.example.com')).toBe(true);
    expect(allowed('https://share.example.com')).toBe(true);
    for (const origin of [
      'https://evil.example',
      'http://rooms.example.com',
      'https://rooms.example.com.evil.example',
      'http://localhost:5173',
      'null',
      'garbage',
    ]) {
      expect(allowed(origin), origin).toBe(false);
    }
  });

  it('without PUBLIC_URL, accepts pages on this machine’s loopback names only', () => {
    const allowed = allowedOrigins(parseEnv({ ...base, PORT: '3000' }));
    for (const origin of [
      'http://localhost:3000',
      'http://127.0.0.1:3000',
      'http://[::1]:3000',
      'http://localhost:5173',
    ]) {
      expect(allowed(origin), origin).toBe(true);
    }
    // What a DNS-rebinding page sends: its own name, which now resolves to this server.
    expect(allowed('http://rebind.evil.example:3000')).toBe(false);
    expect(allowed('http://192.168.1.5:3000')).toBe(false);
  });
});
