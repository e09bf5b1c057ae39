// The forms' input rules as the server applies them, with the texts people see.
import { describe, expect, it } from 'vitest';
import { ZLoginRequest } from '../routers/user/login.types';
import { ZRegisterRequest } from '../routers/user/register.types';
import { ZResetPasswordRequest } from '../routers/user/reset-password.types';
import { ZSendRegisterCodeRequest, ZSendResetPasswordCodeRequest } from '../routers/user/send-code.types';
import { ZUpdatePasswordRequest } from '../routers/user/update-password.types';
import { EMAIL_PATTERN, hasControlCharacters } from './common';

const captcha = { lot_number: 'l', captcha_output: 'o', pass_token: 'p', gen_time: '1', captcha_id: 'c' };

function firstError(
  schema: { safeParse(value: unknown): { success: boolean; error?: { issues: { message: string }[] } } },
  value: unknown,
) {
  const result = schema.safeParse(value);
  return result.success ? undefined : result.error?.issues[0]?.message;
}

describe('e-mail pattern (non-space text, @, text, dot, text)', () => {
  it.each(['a@b.co', 'first.last+tag@sub.example.org', 'ÜBER@例え.jp'])('accepts %s', (email) => {
    expect(EMAIL_PATTERN.test(email)).toBe(true);
  });
  it.each(['', 'plain', 'a@b', '@b.co', 'a b@c.de', 'a@b.'])('refuses %j', (email) => {
    expect(EMAIL_PATTERN.test(email)).toBe(false);
  });
});

describe('login', () => {
  it('lower-cases and trims the e-mail', () => {
    const parsed = ZLoginRequest.parse({ email: '  Ada@Example.COM ', password: 'x', ...captcha });
    expect(parsed.email).toBe('ada@example.com');
  });
  it('asks for both fields, then for the captcha', () => {
    expect(firstError(ZLoginRequest, { ...captcha })).toBe('Please fill in your email and password');
    expect(firstError(ZLoginRequest, { email: 'a@b.co', password: '', ...captcha })).toBe(
      'Please fill in your email and password',
    );
    expect(firstError(ZLoginRequest, { email: 'a@b.co', password: 'x' })).toBe(
      'Please complete the verification',
    );
    expect(firstError(ZLoginRequest, { email: 'nope', password: 'x', ...captcha })).toBe('Incorrect account');
  });
});

describe('registration', () => {
  const valid = { username: 'Ada', email: 'a@b.co', password: 'secret', code: '012345', ...captcha };
  it('accepts a complete form and keeps leading zeros of the code', () => {
    expect(ZRegisterRequest.parse(valid).code).toBe('012345');
  });
  it('names what is wrong', () => {
    expect(firstError(ZRegisterRequest, { ...valid, username: '' })).toBe(
      'Please fill in the complete registration information',
    );
    expect(firstError(ZRegisterRequest, { ...valid, email: 'a@b' })).toBe(
      'Please enter a valid email address',
    );
    expect(firstError(ZRegisterRequest, { ...valid, password: '12345' })).toBe(
      'Password length cannot be less than 6 digits',
    );
    expect(firstError(ZRegisterRequest, { ...valid, code: '12ab56' })).toBe(
      'The verification code is incorrect',
    );
    expect(firstError(ZRegisterRequest, { ...valid, username: 'x'.repeat(33) })).toBe(
      'The username cannot be longer than 32 characters',
    );
    expect(firstError(ZRegisterRequest, { ...valid, username: 'a\u0000b' })).toBe(
      'The username contains characters that are not allowed',
    );
  });
});

describe('codes and reset', () => {
  it('uses the register and reset screens’ own texts for a malformed e-mail', () => {
    expect(firstError(ZSendRegisterCodeRequest, { email: 'x@y', ...captcha })).toBe(
      'Please enter a valid email address',
    );
    expect(firstError(ZSendResetPasswordCodeRequest, { email: 'x@y', ...captcha })).toBe(
      'Email is incorrect',
    );
    expect(firstError(ZSendResetPasswordCodeRequest, { email: '', ...captcha })).toBe(
      'Please enter a valid email address',
    );
  });
  it('checks the reset form', () => {
    const valid = { email: 'a@b.co', password: 'secret', code: '123456', ...captcha };
    expect(ZResetPasswordRequest.safeParse(valid).success).toBe(true);
    expect(firstError(ZResetPasswordRequest, { ...valid, code: '12' })).toBe('Code is incorrect');
    expect(firstError(ZResetPasswordRequest, { ...valid, password: 'short' })).toBe(
      'Password length cannot be less than 6 digits',
    );
    expect(firstError(ZResetPasswordRequest, { email: 'a@b.co', ...captcha })).toBe(
      'Please fill in the email, verification code and new password',
    );
  });
  it('refuses an empty or short new password on change', () => {
    expect(firstError(ZUpdatePasswordRequest, { oldPassword: '', newPassword: 'secret' })).toBe(
      'The password cannot be empty',
    );
    expect(firstError(ZUpdatePasswordRequest, { oldPassword: 'old', newPassword: '123' })).toBe(
      'Password length cannot be less than 6 digits',
    );
  });
});

describe('control characters', () => {
  it('are found in any string of the input, keys included; tabs and line breaks only outside text areas', () => {
    expect(hasControlCharacters({ name: 'plain', nested: [{ deep: 'ok ✓' }] })).toBe(false);
    expect(hasControlCharacters({ nested: [{ deep: 'nul\u0000' }] })).toBe(true);
    expect(hasControlCharacters({ 'key\u0007': 'x' })).toBe(true);
    expect(hasControlCharacters('del\u007f')).toBe(true);
    expect(hasControlCharacters({ remark: 'one\ntwo' })).toBe(true);
    expect(hasControlCharacters({ reason: 'one\r\n\ttwo' }, new Set(['reason']))).toBe(false);
    expect(hasControlCharacters({ reason: 'one\u0000' }, new Set(['reason']))).toBe(true);
  });
});
