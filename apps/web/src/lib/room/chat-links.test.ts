import { describe, expect, it } from 'vitest';
import { chatSegments } from './chat-links';

describe('chatSegments', () => {
  it('makes http and https addresses links, in full, and keeps the rest as text', () => {
    const text = 'see https://example.com/a/b?q=1#top and http://example.org, then tell me';
    expect(chatSegments(text)).toEqual([
      { text: 'see ' },
      { text: 'https://example.com/a/b?q=1#top', href: 'https://example.com/a/b?q=1#top' },
      { text: ' and ' },
      { text: 'http://example.org', href: 'http://example.org/' },
      { text: ', then tell me' },
    ]);
    expect(
      chatSegments(text)
        .map((segment) => segment.text)
        .join(''),
    ).toBe(text);
  });

  it('never links other schemes, whatever their case or disguise', () => {
    for (const text of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)//https://example.com',
      'data:text/html,<script>alert(1)</script>',
      'file:///etc/passwd',
      'xhttps://example.com',
      'https://',
    ]) {
      const links = chatSegments(text).filter((segment) => segment.href);
      for (const link of links) expect(link.href).toMatch(/^https?:\/\//);
      expect(links.every((link) => link.text.startsWith('https://') || link.text.startsWith('http://'))).toBe(
        true,
      );
    }
    expect(chatSegments('javascript:alert(1)')).toEqual([{ text: 'javascript:alert(1)' }]);
    expect(chatSegments('xhttps://example.com')).toEqual([{ text: 'xhttps://example.com' }]);
  });

  it('leaves sentence punctuation out and keeps brackets the address opened', () => {
    expect(chatSegments('(https://en.wikipedia.org/wiki/Mercury_(planet)).')).toEqual([
      { text: '(' },
      {
        text: 'https://en.wikipedia.org/wiki/Mercury_(planet)',
        href: 'https://en.wikipedia.org/wiki/Mercury_(planet)',
      },
      { text: ').' },
    ]);
  });

  it('shows a look-alike host as written and links its real (punycode) address', () => {
    const [link] = chatSegments('https://раураl.com/login');
    expect(link).toEqual({ text: 'https://раураl.com/login', href: 'https://xn--l-7sba6dbr.com/login' });
  });
});
