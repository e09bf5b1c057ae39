import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import './readable-issues';

const ZQuery = z.object({
  out_trade_no: z.string().max(8),
  page: z.coerce.number().int().min(1).max(100),
  flag: z.boolean(),
  kind: z.enum(['a', 'b']),
  named: z.string().min(2, 'A text of its own'),
});
const first = (input: unknown) => ZQuery.safeParse(input).error?.issues[0]?.message;
const valid = { out_trade_no: 'x', page: 1, flag: true, kind: 'a', named: 'ok' };

describe('validation failures a schema gives no words of its own', () => {
  it('name the field and say what it needs', () => {
    expect(first({ ...valid, out_trade_no: undefined })).toBe('"out_trade_no" is required');
    expect(first({ ...valid, out_trade_no: ['a', 'b'] })).toBe('"out_trade_no" must be text');
    expect(first({ ...valid, out_trade_no: 'x'.repeat(9) })).toBe('"out_trade_no" has at most 8 characters');
    expect(first({ ...valid, page: 'abc' })).toBe('"page" must be a number');
    expect(first({ ...valid, page: 1.5 })).toBe('"page" must be a whole number');
    expect(first({ ...valid, page: 0 })).toBe('"page" must be at least 1');
    expect(first({ ...valid, page: 1000 })).toBe('"page" must be at most 100');
    expect(first({ ...valid, flag: 'yes' })).toBe('"flag" must be true or false');
    expect(first({ ...valid, kind: 'c' })).toBe('"kind" must be one of "a", "b"');
    expect(first('text')).toBe('The request must be a JSON object');
  });

  it('leave a schema’s own text alone', () => {
    expect(first({ ...valid, named: 'x' })).toBe('A text of its own');
  });
});
