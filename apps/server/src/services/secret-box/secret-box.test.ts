import { describe, expect, it } from 'vitest';
import { createSecretBox } from './secret-box';

describe('secret box', () => {
  it('opens what it sealed, and nothing sealed with another secret or changed on the way', () => {
    const box = createSecretBox('a'.repeat(40), 'share-password');
    const sealed = box.seal('open sesame ✓');
    expect(sealed).not.toContain('sesame');
    expect(box.open(sealed)).toBe('open sesame ✓');
    expect(box.seal('open sesame ✓')).not.toBe(sealed);

    expect(createSecretBox('b'.repeat(40), 'share-password').open(sealed)).toBeNull();
    expect(createSecretBox('a'.repeat(40), 'other-purpose').open(sealed)).toBeNull();
    const [version, iv, tag, body = ''] = sealed.split('.');
    const flipped = `${body[0] === 'A' ? 'B' : 'A'}${body.slice(1)}`;
    expect(box.open([version, iv, tag, flipped].join('.'))).toBeNull();
    expect(box.open('not sealed')).toBeNull();
  });
});
