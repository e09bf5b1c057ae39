// Accounts for the admin tests: owners from the room tests' kit, made administrators in the database (the first
// administrator of a real install is made the same way, by the operator CLI).
import { User } from '@rooms/db';
import type { FastifyInstance } from 'fastify';
import { rest } from './rest-client';
import { createOwner, type TTestOwner } from './room-test-users';

export async function createAdmin(app: FastifyInstance): Promise<TTestOwner & { email: string }> {
  const owner = await createOwner(app);
  const em = app.orm.em.fork();
  const user = await em.findOneOrFail(User, owner.userId);
  user.role = 'admin';
  await em.flush();
  return { ...owner, email: user.email };
}

/** An administrator's sign-in link for the user, opened: the impersonated session's token. */
export async function impersonate(
  app: FastifyInstance,
  adminToken: string,
  userId: string,
  reason = 'Support request: seeing what the user sees',
): Promise<string> {
  const link = await rest<{ url: string }>(app, 'POST', '/api/admin/users/createLoginLink', {
    token: adminToken,
    body: { userId, reason },
  });
  if (link.msg !== 'success') throw new Error(`createLoginLink failed: ${String(link.data)}`);
  const token = link.data.url.split('/admintologinuser/')[1] ?? '';
  const session = await rest<{ token: string }>(app, 'POST', '/api/user/adminLogin', { body: { token } });
  if (session.msg !== 'success') throw new Error(`adminLogin failed: ${String(session.data)}`);
  return session.data.token;
}
