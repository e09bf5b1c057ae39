import { describe, expect, it } from 'vitest';
import { knockFromHash, passwordFromHash, roomKnockLink, roomShareLink } from './share-links';

describe('room share links', () => {
  it('point at the share domain, with the password only in the fragment', () => {
    expect(roomShareLink('https://share.example/', 'r-1')).toBe('https://share.example/share/room/r-1');
    const link = roomShareLink('https://share.example', 'r-1', 'p&ss #1');
    expect(link.split('#')[0]).toBe('https://share.example/share/room/r-1');
    expect(passwordFromHash(new URL(link).hash)).toBe('p&ss #1');
  });

  it('read no password from an empty or unrelated fragment', () => {
    expect(passwordFromHash('')).toBeNull();
    expect(passwordFromHash('#password=')).toBeNull();
    expect(passwordFromHash('#other=1')).toBeNull();
  });

  it('carry the knock token in the fragment, never the password, and read it back', () => {
    const link = roomKnockLink('https://share.example/', 'r-1', 'tok_en-1');
    expect(link).toBe('https://share.example/share/room/r-1#knock=tok_en-1');
    expect(knockFromHash(new URL(link).hash)).toBe('tok_en-1');
    expect(passwordFromHash(new URL(link).hash)).toBeNull();
    expect(knockFromHash('#password=sesame')).toBeNull();
    expect(knockFromHash('#knock=')).toBeNull();
  });
});
