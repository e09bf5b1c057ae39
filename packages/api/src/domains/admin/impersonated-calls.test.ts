import { describe, expect, it } from 'vitest';
import { summarizeInput } from './impersonated-calls';

describe('what an impersonated call asked for, as the audit log keeps it', () => {
  it('keeps plain values and hides every password, share password or token', () => {
    expect(
      summarizeInput({
        name: 'film night',
        isPublic: true,
        maxConnections: 5,
        remark: null,
        password: 'open sesame',
        oldPassword: 'old one',
        sharePassword: '',
        passToken: 'captcha',
      }),
    ).toEqual({
      name: 'film night',
      isPublic: true,
      maxConnections: 5,
      remark: null,
      password: '(hidden)',
      oldPassword: '(hidden)',
      sharePassword: '',
      passToken: '(hidden)',
    });
  });

  it('bounds what a caller could stuff into it: long text, many keys, nested values', () => {
    const many = Object.fromEntries(Array.from({ length: 50 }, (_, index) => [`key${index}`, index]));
    expect(Object.keys(summarizeInput(many) ?? {})).toHaveLength(20);
    expect(summarizeInput({ text: 'x'.repeat(10_000) })?.text).toHaveLength(200);
    expect(summarizeInput({ nested: { deep: 'value' }, list: [1, 2] })).toEqual({});
    expect(summarizeInput(undefined)).toBeNull();
    expect(summarizeInput('text')).toBeNull();
    expect(summarizeInput([1, 2])).toBeNull();
  });
});
