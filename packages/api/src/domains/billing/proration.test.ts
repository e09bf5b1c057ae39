import type { Plan, Subscription } from '@rooms/db';
import { describe, expect, it } from 'vitest';
import { planChange, unusedCents } from './proration';

const DAY_MS = 86_400_000;
const start = new Date('2026-01-01T00:00:00Z');
const days = (count: number) => new Date(start.getTime() + count * DAY_MS);

describe('the unused part of a period', () => {
  it('is the price pro rata by the time left, rounded down to the cent', () => {
    const month = { startsAt: start, expiresAt: days(30), priceCents: 999 };
    expect(unusedCents(month, start)).toBe(999);
    expect(unusedCents(month, days(10))).toBe(666);
    expect(unusedCents(month, days(10.5))).toBe(649); // 649.35
    expect(unusedCents(month, days(30))).toBe(0);
    expect(unusedCents(month, days(31))).toBe(0);
  });

  it('is nothing for what was not paid for or never ends', () => {
    expect(unusedCents({ startsAt: start, expiresAt: days(30), priceCents: 0 }, days(1))).toBe(0);
    expect(unusedCents({ startsAt: start, expiresAt: null, priceCents: 999 }, days(1))).toBe(0);
  });

  it('stays exact for large prices over long periods', () => {
    const decade = { startsAt: start, expiresAt: days(3650), priceCents: 99_999_999 };
    // 99,999,999 × 1825 / 3650 = 49,999,999.5: a double would round the product; BigInt floors it.
    expect(unusedCents(decade, days(1825))).toBe(49_999_999);
  });
});

describe('a plan change', () => {
  const pro = { id: 'pro', priceCents: 999 } as Plan;
  const yearly = { id: 'yearly', priceCents: 9900 } as Plan;
  const holding = { plan: pro, startsAt: start, expiresAt: days(30), priceCents: 999 } as Subscription;

  it('credits the plan held when another replaces it, and nets the price', () => {
    expect(planChange(holding, yearly, days(10))).toEqual({
      renews: false,
      priceCents: 9900,
      creditCents: 666,
      netCents: 9234,
    });
  });

  it('credits nothing when the plan held is renewed, or when none is held', () => {
    expect(planChange(holding, pro, days(10))).toMatchObject({ renews: true, creditCents: 0, netCents: 999 });
    expect(planChange(null, pro, days(10))).toMatchObject({ renews: false, creditCents: 0, netCents: 999 });
  });
});
