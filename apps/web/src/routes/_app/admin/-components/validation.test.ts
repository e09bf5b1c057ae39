import { describe, expect, it } from 'vitest';
import { ZAdjustBalanceForm, ZGrantPlanForm, ZLevelForm, ZPlanForm, ZReasonForm } from './validation';

const plan = {
  name: ' Pro ',
  description: '',
  price: '9.90',
  inventory: '',
  maxRooms: '3',
  maxConnections: '10',
  maxWidth: '1920',
  maxHeight: '1080',
  maxFrameRate: '60',
  maxBitrateKbps: '4000',
  timeQuotaMinutes: '600',
  freeTimeQuotaMinutes: '60',
  enabled: true,
  sortOrder: '0',
  reason: ' price change ',
};

/** The first problem in field order, as the dialog shows it. */
function firstProblem(result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) {
  const issue = result.error?.issues[0];
  return issue ? [issue.path[0], issue.message] : null;
}

describe('admin form schemas', () => {
  it('turns a plan as typed into the values the call takes', () => {
    expect(ZPlanForm.parse(plan)).toMatchObject({
      name: 'Pro',
      price: 9.9,
      inventory: null,
      maxRooms: 3,
      reason: 'price change',
    });
  });

  it('names the first field’s problem, in the order the dialog shows the fields', () => {
    expect(firstProblem(ZPlanForm.safeParse({ ...plan, price: '1.001', maxRooms: '0', reason: '' }))).toEqual(
      ['price', 'The price must be in whole cents'],
    );
    expect(firstProblem(ZPlanForm.safeParse({ ...plan, inventory: '-1' }))).toEqual([
      'inventory',
      'The inventory must be a whole number from 0 to 1000000',
    ]);
    expect(firstProblem(ZPlanForm.safeParse({ ...plan, reason: 'ok' }))).toEqual([
      'reason',
      'The reason must be at least 3 characters',
    ]);
  });

  it('checks the user actions as the server does', () => {
    expect(firstProblem(ZReasonForm.safeParse({ reason: '   ' }))).toEqual([
      'reason',
      'Please give a reason',
    ]);
    expect(firstProblem(ZLevelForm.safeParse({ level: '1.5', reason: 'why not' }))).toEqual([
      'level',
      'The level must be a whole number from 1 to 99',
    ]);
    expect(firstProblem(ZGrantPlanForm.safeParse({ planId: '', days: '30', reason: 'gift' }))).toEqual([
      'planId',
      'Please choose a plan',
    ]);
    expect(firstProblem(ZAdjustBalanceForm.safeParse({ amount: '0', reason: 'fix' }))).toEqual([
      'amount',
      'The amount cannot be zero',
    ]);
    expect(ZAdjustBalanceForm.parse({ amount: '-5.25', reason: 'refund by hand' })).toEqual({
      amount: -5.25,
      reason: 'refund by hand',
    });
  });
});
