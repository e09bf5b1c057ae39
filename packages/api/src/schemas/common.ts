// Field rules shared by several procedures (spec §5). The texts are the ones a person sees.
import { z } from 'zod';

/** Spec §5: non-space text, @, text, dot, text. */
export const EMAIL_PATTERN = /^\S+@\S+\.\S+$/;
export const MIN_PASSWORD_LENGTH = 6;
export const MAX_PASSWORD_LENGTH = 128;

export const ZPassword = z
  .string({ error: 'Please enter a password' })
  .min(MIN_PASSWORD_LENGTH, { error: 'Password length cannot be less than 6 digits' })
  .max(MAX_PASSWORD_LENGTH, { error: 'The password cannot be longer than 128 characters' });

/** An e-mail address as users type it: trimmed and compared case-insensitively. */
export function zEmail(messages: { required: string; format: string }) {
  return z
    .string({ error: messages.required })
    .trim()
    .min(1, { error: messages.required })
    .max(254, { error: messages.format })
    .regex(EMAIL_PATTERN, { error: messages.format })
    .transform((email) => email.toLowerCase());
}

export const ZVerificationCode = z
  .string({ error: 'Please enter the verification code' })
  .trim()
  .regex(/^\d{6}$/, { error: 'The verification code is incorrect' });
