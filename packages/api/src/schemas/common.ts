// Field rules shared by several procedures. The texts are the ones a person sees.
import { z } from 'zod';

/**
 * Row ids are UUIDs: an id that is not one names nothing, and must be answered as "not found" before it reaches
 * PostgreSQL, which would refuse the query itself.
 */
export function isUuid(id: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);
}

/** An e-mail address: non-space text, @, text, dot, text. */
export const EMAIL_PATTERN = /^\S+@\S+\.\S+$/;
/** The longest address the database keeps (users.email). */
export const EMAIL_MAX_LENGTH = 254;
export const MIN_PASSWORD_LENGTH = 6;
export const MAX_PASSWORD_LENGTH = 128;

export const ZPassword = z
  .string({ error: 'Please enter a password' })
  .min(MIN_PASSWORD_LENGTH, { error: 'Password length cannot be less than 6 digits' })
  .max(MAX_PASSWORD_LENGTH, { error: 'The password cannot be longer than 128 characters' })
  // Six spaces look like nothing typed, on the form and to whoever signs in next.
  .refine((password) => password.trim().length > 0, { error: 'The password cannot be empty' });

/** An e-mail address as users type it: trimmed and compared case-insensitively. */
export function zEmail(messages: { required: string; format: string }) {
  return z
    .string({ error: messages.required })
    .trim()
    .min(1, { error: messages.required })
    .max(EMAIL_MAX_LENGTH, { error: messages.format })
    .regex(EMAIL_PATTERN, { error: messages.format })
    .transform((email) => email.toLowerCase());
}

export const ZVerificationCode = z
  .string({ error: 'Please enter the verification code' })
  .trim()
  .regex(/^\d{6}$/, { error: 'The verification code is incorrect' });

/** Control characters (C0, DEL and C1), tab, line feed and carriage return included. */
const CONTROL_CHARACTER = /\p{Cc}/u;
/** The same, less what a text area holds (tab, line feed, carriage return). */
const CONTROL_CHARACTER_BUT_LINES = /(?![\t\n\r])\p{Cc}/u;

/**
 * Whether any string in the input, object keys included, holds a control character. Tabs and line breaks are
 * allowed only in the top-level fields named in `multiline` (text areas).
 */
export function hasControlCharacters(input: unknown, multiline: ReadonlySet<string> = new Set()): boolean {
  const visit = (value: unknown, lines: boolean, depth: number): boolean => {
    if (typeof value === 'string')
      return (lines ? CONTROL_CHARACTER_BUT_LINES : CONTROL_CHARACTER).test(value);
    if (value === null || typeof value !== 'object' || depth > 32) return false;
    if (Array.isArray(value)) return value.some((item) => visit(item, lines, depth + 1));
    return Object.entries(value).some(
      ([key, item]) =>
        CONTROL_CHARACTER.test(key) || visit(item, lines || (depth === 0 && multiline.has(key)), depth + 1),
    );
  };
  return visit(input, false, 0);
}
