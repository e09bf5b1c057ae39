// Calls the REST layer the way a third-party script does (through app.inject), including solving the
// self-hosted captcha from its documented challenge and verify calls.

import type { TCaptchaFields } from '@rooms/api';
import { solveChallenge } from '@rooms/api/captcha';
import type { FastifyInstance } from 'fastify';

export interface TRestResult<T = unknown> {
  status: number;
  msg: string;
  data: T;
}

export interface TRestCall {
  query?: Record<string, string>;
  body?: unknown;
  token?: string;
  /** The caller's address; tests give each scenario its own so throttling stays per scenario. */
  ip?: string;
}

export async function rest<T = unknown>(
  app: FastifyInstance,
  method: 'GET' | 'POST',
  path: string,
  call: TRestCall = {},
): Promise<TRestResult<T>> {
  const response = await app.inject({
    method,
    url: path,
    query: call.query,
    headers: call.token ? { authorization: call.token } : {},
    remoteAddress: call.ip ?? '127.0.0.1',
    ...(call.body !== undefined ? { payload: call.body as object } : {}),
  });
  const json = response.json() as { msg: string; data: T };
  return { status: response.statusCode, msg: json.msg, data: json.data };
}

export async function solveCaptcha(app: FastifyInstance, ip?: string): Promise<TCaptchaFields> {
  const challenge = await rest<Parameters<typeof solveChallenge>[0]>(app, 'GET', '/api/captcha/challenge', {
    ip,
  });
  if (challenge.msg !== 'success') throw new Error(`captcha challenge failed: ${String(challenge.data)}`);
  const solution = await solveChallenge(challenge.data);
  const fields = await rest<TCaptchaFields>(app, 'POST', '/api/captcha/verify', { body: solution, ip });
  if (fields.msg !== 'success') throw new Error(`captcha verify failed: ${String(fields.data)}`);
  return fields.data;
}

let counter = 0;
/** A fresh address and IP for each scenario, so tests never share accounts or throttling budgets. */
export function uniqueCaller(prefix = 'user') {
  counter += 1;
  const id = `${Date.now().toString(36)}${counter}${Math.random().toString(36).slice(2, 6)}`;
  return {
    email: `${prefix}-${id}@example.test`,
    ip: `10.${counter % 250}.${Math.floor(Math.random() * 250)}.${(counter * 7) % 250}`,
  };
}
