// The admin forms' checks, mirroring the server's (packages/api routers/admin/admin.types.ts) with the same texts,
// so a mistake is named before the call and reads the same as the server's answer would.
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

type TChecked<T> = T | MessageDescriptor;

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

export function checkLevel(text: string): TChecked<number> {
  return whole(text, 1, 99) ?? msg`The level must be a whole number from 1 to 99`;
}

export function checkDays(text: string): TChecked<number> {
  return whole(text, 1, 3650) ?? msg`The period must be from 1 to 3650 days`;
}

export function checkAmount(text: string): TChecked<number> {
  const value = parseNumber(text);
  if (value === null) return msg`Please enter an amount`;
  if (value === 0) return msg`The amount cannot be zero`;
  if (Math.abs(value) > 100_000) return msg`The amount can be at most 100000 USD either way`;
  if (!wholeCents(value)) return msg`The amount must be in whole cents`;
  return value;
}

/** ZReason: every change an administrator makes says why, in 3 to 500 characters. */
export const REASON_MAX_LENGTH = 500;

export function checkReason(text: string): TChecked<string> {
  const reason = text.trim();
  if (!reason) return msg`Please give a reason`;
  if (reason.length < 3) return msg`The reason must be at least 3 characters`;
  if (reason.length > REASON_MAX_LENGTH) return msg`The reason can be at most 500 characters`;
  return reason;
}

export interface TPlanForm {
  name: string;
  description: string;
  price: string;
  inventory: string;
  maxRooms: string;
  maxConnections: string;
  maxWidth: string;
  maxHeight: string;
  maxFrameRate: string;
  maxBitrateKbps: string;
  timeQuotaMinutes: string;
  freeTimeQuotaMinutes: string;
  enabled: boolean;
  sortOrder: string;
}

export interface TPlanValues {
  name: string;
  description: string;
  price: number;
  inventory: number | null;
  maxRooms: number;
  maxConnections: number;
  maxWidth: number;
  maxHeight: number;
  maxFrameRate: number;
  maxBitrateKbps: number;
  timeQuotaMinutes: number;
  freeTimeQuotaMinutes: number;
  enabled: boolean;
  sortOrder: number;
}

type TWholeField = Exclude<keyof TPlanForm, 'name' | 'description' | 'price' | 'inventory' | 'enabled'>;

const wholeFields: Record<TWholeField, { min: number; max: number; error: MessageDescriptor }> = {
  maxRooms: { min: 1, max: 1000, error: msg`Rooms must be a whole number from 1 to 1000` },
  maxConnections: { min: 1, max: 1000, error: msg`Connections must be a whole number from 1 to 1000` },
  maxWidth: { min: 320, max: 3840, error: msg`The width must be a whole number from 320 to 3840` },
  maxHeight: { min: 240, max: 2160, error: msg`The height must be a whole number from 240 to 2160` },
  maxFrameRate: { min: 1, max: 60, error: msg`The frame rate must be a whole number from 1 to 60` },
  maxBitrateKbps: { min: 100, max: 50_000, error: msg`The bitrate must be a whole number from 100 to 50000` },
  timeQuotaMinutes: {
    min: 0,
    max: 1_000_000,
    error: msg`The time quota must be a whole number from 0 to 1000000`,
  },
  freeTimeQuotaMinutes: {
    min: 0,
    max: 1_000_000,
    error: msg`The monthly free time must be a whole number from 0 to 1000000`,
  },
  sortOrder: { min: -1000, max: 1000, error: msg`The order must be a whole number from -1000 to 1000` },
};

/** The plan form's values, or the first field's problem with it and its message. */
export function checkPlan(
  form: TPlanForm,
): { values: TPlanValues } | { field: keyof TPlanForm; error: MessageDescriptor } {
  const name = form.name.trim();
  if (!name) return { field: 'name', error: msg`The plan needs a name` };
  if (name.length > 64) return { field: 'name', error: msg`The name can be at most 64 characters` };
  const description = form.description.trim();
  if (description.length > 255)
    return { field: 'description', error: msg`The description can be at most 255 characters` };
  const price = parseNumber(form.price);
  if (price === null) return { field: 'price', error: msg`The price must be a number` };
  if (price < 0) return { field: 'price', error: msg`The price cannot be negative` };
  if (price > 100_000) return { field: 'price', error: msg`The price can be at most 100000 USD` };
  if (!wholeCents(price)) return { field: 'price', error: msg`The price must be in whole cents` };
  let inventory: number | null = null;
  if (form.inventory.trim() !== '') {
    inventory = whole(form.inventory, 0, 1_000_000);
    if (inventory === null)
      return { field: 'inventory', error: msg`The inventory must be a whole number from 0 to 1000000` };
  }
  const numbers = {} as Record<TWholeField, number>;
  for (const [field, rule] of Object.entries(wholeFields) as [
    TWholeField,
    (typeof wholeFields)[TWholeField],
  ][]) {
    const value = whole(form[field], rule.min, rule.max);
    if (value === null) return { field, error: rule.error };
    numbers[field] = value;
  }
  return {
    values: {
      name,
      description,
      price: Math.round(price * 100) / 100,
      inventory,
      enabled: form.enabled,
      ...numbers,
    },
  };
}
