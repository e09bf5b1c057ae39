import { TRPCError } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError, describeError } from './errors';

describe('AppError', () => {
  it('carries the catalogue text, its status and its tRPC code', () => {
    const error = new AppError('INCORRECT_CREDENTIALS');
    expect(error.message).toBe('Incorrect email or password');
    expect(error.status).toBe(400);
    expect(error.code).toBe('BAD_REQUEST');
    expect(new AppError('NOT_LOGGED_IN').status).toBe(401);
  });
  it('fills placeholders', () => {
    expect(new AppError('CODE_COOLDOWN', { args: [42] }).message).toBe(
      'Please wait 42 seconds before requesting another code',
    );
  });
});

describe('describeError', () => {
  it('shows the first validation message of a rejected input', () => {
    const parsed = z
      .object({ email: z.string({ error: 'Please enter a valid email address' }) })
      .safeParse({});
    const error = new TRPCError({ code: 'BAD_REQUEST', cause: parsed.error });
    expect(describeError(error)).toEqual({
      appCode: 'BAD_INPUT',
      status: 400,
      message: 'Please enter a valid email address',
    });
  });
  it('never shows the text of an unexpected failure', () => {
    expect(describeError(new Error('connection refused at 10.0.0.3'))).toEqual({
      appCode: 'INTERNAL',
      status: 500,
      message: 'Unknown error',
    });
  });
});
