// The kinds of value the environment's variables take, shared by the config/ modules that declare them.
import { z } from 'zod';
import type { TEnv } from '../env';

/** A variable that may be unset; empty or blank counts as unset. */
export const optionalString = z
  .string()
  .trim()
  .transform((value) => value || undefined)
  .optional();

/** A port number, or unset. */
export const optionalPort = (min: 0 | 1) =>
  optionalString.pipe(z.coerce.number<string | undefined>().int().min(min).max(65535).optional());

/** The entries of a comma-separated list, trimmed, empty ones dropped. */
export function commaList(value: string): string[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/** Reports what is wrong with a variable, by its name; parseEnv lists every report. */
export type TReport = (variable: keyof TEnv, message: string) => void;
