import { describe, expect, it } from 'vitest';
import {
  isValidEmail,
  passwordStrength,
  strengthPercent,
  validateChangePassword,
  validateLogin,
  validateRegister,
  validateReset,
  validateSendCode,
} from './password';

describe('passwordStrength', () => {
  it.each([
    ['', 'none'],
    ['a', 'weak'],
    ['abcdef', 'weak'], // 6+ but one kind only
    ['ABCDEFGH', 'weak'],
    ['12345678', 'weak'],
    ['abc12', 'weak'], // two kinds but shorter than 6
    ['abcde1', 'medium'],
    ['ABCDE1', 'medium'],
    ['abcDEF', 'medium'],
    ['Abcde1', 'medium'], // all three kinds but shorter than 8
    ['abcdefg1', 'medium'], // 8+ but no upper case
    ['Abcdefg1', 'strong'],
    ['P4ssword!', 'strong'],
  ] as const)('%j is %s', (password, expected) => {
    expect(passwordStrength(password)).toBe(expected);
  });

  it('maps strength to the meter fill', () => {
    expect(strengthPercent('weak')).toBe(33.33);
    expect(strengthPercent('medium')).toBe(66.66);
    expect(strengthPercent('strong')).toBe(100);
    expect(strengthPercent('none')).toBe(0);
  });
});

describe('email pattern (non-space text, @, text, dot, text)', () => {
  it.each([
    ['a@b.c', true],
    ['  user@example.com ', true],
    ['user@example', false],
    ['user example@example.com', false],
    ['@example.com', false],
    ['user@.com', false],
    // Longer than the server keeps (254): refused on the form with the same text as the server's.
    [`${'a'.repeat(242)}@example.com`, true],
    [`${'a'.repeat(243)}@example.com`, false],
  ])('%j → %s', (email, valid) => {
    expect(isValidEmail(email)).toBe(valid);
  });
});

describe('login rules', () => {
  it('needs e-mail and password, then the captcha', () => {
    expect(validateLogin({ email: '', password: 'x', captchaDone: true })).toBe('login-required');
    expect(validateLogin({ email: 'a@b.c', password: '', captchaDone: true })).toBe('login-required');
    expect(validateLogin({ email: 'a@b.c', password: 'x', captchaDone: false })).toBe('captcha-required');
    expect(validateLogin({ email: 'a@b.c', password: 'x', captchaDone: true })).toBeNull();
  });
});

describe('registration rules', () => {
  const valid = {
    username: 'alice',
    email: 'alice@example.com',
    password: 'secret1',
    confirm: 'secret1',
    code: '123456',
    codeRequested: true,
    agreed: true,
    captchaDone: true,
  };

  it('accepts a complete form', () => {
    expect(validateRegister(valid)).toBeNull();
  });

  it.each([
    [{ username: ' ' }, 'register-required'],
    [{ code: '' }, 'register-required'],
    [{ email: 'alice' }, 'email-invalid'],
    [{ password: 'abc', confirm: 'abc' }, 'password-too-short'],
    [{ confirm: 'secret2' }, 'passwords-differ'],
    [{ codeRequested: false }, 'code-not-requested'],
    [{ agreed: false }, 'terms-required'],
    [{ captchaDone: false }, 'captcha-required'],
  ] as const)('%j → %s', (change, issue) => {
    expect(validateRegister({ ...valid, ...change })).toBe(issue);
  });
});

describe('sending a code', () => {
  it('warns on an empty e-mail before asking for the captcha, then checks the pattern', () => {
    expect(validateSendCode({ email: '', captchaDone: false })).toBe('email-required');
    expect(validateSendCode({ email: 'a@b.c', captchaDone: false })).toBe('captcha-required');
    expect(validateSendCode({ email: 'nope', captchaDone: true })).toBe('email-invalid');
    expect(validateSendCode({ email: 'a@b.c', captchaDone: true })).toBeNull();
  });
});

describe('reset rules', () => {
  const valid = {
    email: 'a@b.c',
    password: 'secret1',
    confirm: 'secret1',
    code: '123456',
    codeRequested: true,
    captchaDone: true,
  };
  it.each([
    [{}, null],
    [{ code: '' }, 'reset-required'],
    [{ confirm: 'other1' }, 'passwords-differ'],
    [{ password: 'abc', confirm: 'abc' }, 'password-too-short'],
    [{ password: '        ', confirm: '        ' }, 'password-empty'],
    [{ captchaDone: false }, 'captcha-required'],
    [{ codeRequested: false }, 'code-first'],
  ] as const)('%j → %s', (change, issue) => {
    expect(validateReset({ ...valid, ...change })).toBe(issue);
  });
});

describe('change password rules', () => {
  it('needs all three fields, matching entries and 6 characters', () => {
    expect(
      validateChangePassword({
        oldPassword: '',
        newPassword: 'secret1',
        confirm: 'secret1',
        captchaDone: true,
      }),
    ).toBe('password-empty');
    expect(
      validateChangePassword({
        oldPassword: 'old',
        newPassword: 'secret1',
        confirm: 'secret2',
        captchaDone: true,
      }),
    ).toBe('passwords-differ');
    expect(
      validateChangePassword({ oldPassword: 'old', newPassword: 'abc', confirm: 'abc', captchaDone: true }),
    ).toBe('password-too-short');
    expect(
      validateChangePassword({
        oldPassword: 'old',
        newPassword: '      ',
        confirm: '      ',
        captchaDone: true,
      }),
    ).toBe('password-empty');
    const filled = { oldPassword: 'old', newPassword: 'secret1', confirm: 'secret1' };
    expect(validateChangePassword({ ...filled, captchaDone: false })).toBe('verification-invalid');
    expect(validateChangePassword({ ...filled, captchaDone: true })).toBeNull();
  });
});
