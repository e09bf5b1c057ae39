import { describe, expect, it } from 'vitest';
import { isBlockedUrl, normaliseAddress } from './url-policy';

describe('normaliseAddress', () => {
  it('adds https:// to what people type without a scheme', () => {
    expect(normaliseAddress('example.com')).toBe('https://example.com/');
    expect(normaliseAddress('  example.com/a?b=1 ')).toBe('https://example.com/a?b=1');
    expect(normaliseAddress('localhost:3000/x')).toBe('https://localhost:3000/x');
  });

  it('keeps http and https URLs and the blank page', () => {
    expect(normaliseAddress('http://example.com:8080/p')).toBe('http://example.com:8080/p');
    expect(normaliseAddress('HTTPS://Example.com')).toBe('https://example.com/');
    expect(normaliseAddress('about:blank')).toBe('about:blank');
    expect(normaliseAddress('')).toBe('about:blank');
  });

  it('refuses every other scheme and unparseable text', () => {
    for (const address of [
      'file:///etc/passwd',
      'chrome://settings',
      'devtools://devtools/bundled/inspector.html',
      'view-source:https://example.com',
      'javascript:alert(1)',
      'data:text/html,<h1>x</h1>',
      'ftp://example.com',
      'hello world',
    ]) {
      expect(() => normaliseAddress(address), address).toThrowError();
    }
  });
});

describe('isBlockedUrl', () => {
  it('flags the browser-internal and local-file schemes only', () => {
    expect(isBlockedUrl('file:///etc/passwd')).toBe(true);
    expect(isBlockedUrl('CHROME://version')).toBe(true);
    expect(isBlockedUrl('view-source:http://x')).toBe(true);
    expect(isBlockedUrl('https://example.com/file:')).toBe(false);
    expect(isBlockedUrl('chrome-error://chromewebdata/')).toBe(false);
    expect(isBlockedUrl('about:blank')).toBe(false);
  });
});
