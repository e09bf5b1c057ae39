// The admin forms' schemas, mirroring the server's (packages/api routers/admin/admin.types.ts) with the same texts,
// so a mistake is named before the call and reads the same as the server's answer would (both are translated
// through the texts the server may send, lib/messages.ts). Each field is a text as typed; the schema turns it into
// the value the call takes. Fields are checked in the order the dialog shows them.
import { z } from 'zod';

const wholeCents = (value: number) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6;

function parseNumber(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : null;
}

function whole(text: string, min: number, max: number): number | null {
  const value = parseNumber(text);
  if (value === null || !Number.isInteger(value) || value < min || value > max) return null;
  return value;
}

/** A typed field whose `check` returns its value or, through `fail`, the first thing wrong with it. */
function checked<T>(check: (text: string, fail: (message: string) => never) => T) {
  return z.string().transform((text, context) =>
    check(text, (message) => {
      context.addIssue({ code: 'custom', message });
      return z.NEVER;
    }),
  );
}

function wholeField(min: number, max: number, message: string) {
  return checked((text, fail) => whole(text, min, max) ?? fail(message));
}

/** ZReason: every change an administrator makes says why, in 3 to 500 characters. */
export const REASON_MAX_LENGTH = 500;

const ZReason = checked((text, fail) => {
  const reason = text.trim();
  if (!reason) return fail('Please give a reason');
  if (reason.length < 3) return fail('The reason must be at least 3 characters');
  if (reason.length > REASON_MAX_LENGTH) return fail('The reason can be at most 500 characters');
  return reason;
});

/** A change that takes nothing but its reason. */
export const ZReasonForm = z.object({ reason: ZReason });

export const ZLevelForm = z.object({
  level: wholeField(1, 99, 'The level must be a whole number from 1 to 99'),
  reason: ZReason,
});

export const ZGrantPlanForm = z.object({
  planId: checked((planId, fail) => planId || fail('Please choose a plan')),
  days: wholeField(1, 3650, 'The period must be from 1 to 3650 days'),
  reason: ZReason,
});

export const ZAdjustBalanceForm = z.object({
  amount: checked((text, fail) => {
    const value = parseNumber(text);
    if (value === null) return fail('Please enter an amount');
    if (value === 0) return fail('The amount cannot be zero');
    if (Math.abs(value) > 100_000) return fail('The amount can be at most 100000 USD either way');
    if (!wholeCents(value)) return fail('The amount must be in whole cents');
    return value;
  }),
  reason: ZReason,
});

export const ZPlanForm = z.object({
  name: checked((text, fail) => {
    const name = text.trim();
    if (!name) return fail('The plan needs a name');
    if (name.length > 64) return fail('The name can be at most 64 characters');
    return name;
  }),
  description: checked((text, fail) => {
    const description = text.trim();
    return description.length > 255 ? fail('The description can be at most 255 characters') : description;
  }),
  price: checked((text, fail) => {
    const price = parseNumber(text);
    if (price === null) return fail('The price must be a number');
    if (price < 0) return fail('The price cannot be negative');
    if (price > 100_000) return fail('The price can be at most 100000 USD');
    if (!wholeCents(price)) return fail('The price must be in whole cents');
    return Math.round(price * 100) / 100;
  }),
  inventory: checked((text, fail) =>
    text.trim() === ''
      ? null
      : (whole(text, 0, 1_000_000) ?? fail('The inventory must be a whole number from 0 to 1000000')),
  ),
  maxRooms: wholeField(1, 1000, 'Rooms must be a whole number from 1 to 1000'),
  maxConnections: wholeField(1, 1000, 'Connections must be a whole number from 1 to 1000'),
  maxWidth: wholeField(320, 3840, 'The width must be a whole number from 320 to 3840'),
  maxHeight: wholeField(240, 2160, 'The height must be a whole number from 240 to 2160'),
  maxFrameRate: wholeField(1, 60, 'The frame rate must be a whole number from 1 to 60'),
  maxBitrateKbps: wholeField(100, 50_000, 'The bitrate must be a whole number from 100 to 50000'),
  timeQuotaMinutes: wholeField(0, 1_000_000, 'The time quota must be a whole number from 0 to 1000000'),
  freeTimeQuotaMinutes: wholeField(
    0,
    1_000_000,
    'The monthly free time must be a whole number from 0 to 1000000',
  ),
  enabled: z.boolean(),
  sortOrder: wholeField(-1000, 1000, 'The order must be a whole number from -1000 to 1000'),
  reason: ZReason,
});

/** The plan form as typed. */
export type TPlanForm = z.input<typeof ZPlanForm>;
