import type { TAppErrorCode } from '@rooms/api';
import { expect } from 'vitest';

/** The machine code of the AppError a call rejects with; fails the test when the call succeeds. */
export async function appCodeOf(promise: Promise<unknown>): Promise<TAppErrorCode> {
  const error = await promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error,
  );
  expect(error).toHaveProperty('appCode');
  return (error as { appCode: TAppErrorCode }).appCode;
}
