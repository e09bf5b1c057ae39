// Room tests need signed-in owners on several plans, many of them: they are written straight into the test
// server's database (a user, a session for a token, optionally a subscription) instead of going through
// registration, which the accounts tests already cover end to end.
import { createHash, randomBytes } from 'node:crypto';
import { Plan, Session, Subscription, User } from '@rooms/db';
import type { FastifyInstance } from 'fastify';

export interface TTestOwner {
  userId: string;
  username: string;
  token: string;
}

let sequence = 0;

export async function createOwner(
  app: FastifyInstance,
  options: { plan?: string } = {},
): Promise<TTestOwner> {
  sequence += 1;
  const suffix = `${Date.now().toString(36)}${sequence}${randomBytes(2).toString('hex')}`;
  const em = app.orm.em.fork();
  const user = em.create(User, {
    username: `owner-${suffix}`.slice(0, 32),
    email: `owner-${suffix}@example.test`,
    passwordHash: 'not-used-by-these-tests',
  });
  const token = randomBytes(32).toString('base64url');
  em.create(Session, {
    user,
    tokenHash: createHash('sha256').update(token).digest('hex'),
    expiresAt: new Date(Date.now() + 24 * 60 * 60 * 1000),
  });
  if (options.plan) {
    const plan = await em.findOneOrFail(Plan, { code: options.plan });
    em.create(Subscription, { user, plan, startsAt: new Date(Date.now() - 60_000), expiresAt: null });
  }
  await em.flush();
  return { userId: user.id, username: user.username, token };
}

/** A room name no other test uses. */
export function uniqueRoomName(prefix = 'room'): string {
  sequence += 1;
  return `${prefix}-${Date.now().toString(36)}${sequence}${randomBytes(2).toString('hex')}`.slice(0, 32);
}
