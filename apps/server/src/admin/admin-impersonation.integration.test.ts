// An administrator signed in as a user through the one-time link, against the real server and database: every change
// made there is written to the audit log as the administrator's, against the user; and what cannot be undone
// (deleting a room, paying, the password) is refused there over tRPC and REST alike, and the attempt logged, while
// the user's own session still may.
import { AuditEntry, Room } from '@rooms/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin, impersonate } from '../testing/admin-accounts';
import { rest } from '../testing/rest-client';
import { createOwner, type TTestOwner, uniqueRoomName } from '../testing/room-test-users';
import { startTestServer, type TTestServer } from '../testing/test-server';

const FORBIDDEN = 'This is not available while an administrator is signed in as this user';

let server: TTestServer;
let admin: TTestOwner & { email: string };

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  admin = await createAdmin(server.app);
});

afterAll(async () => {
  await server?.close();
});

async function auditRows(targetId: string): Promise<AuditEntry[]> {
  return server.app.orm.em
    .fork()
    .find(AuditEntry, { targetId }, { orderBy: { createdAt: 'asc', id: 'asc' }, populate: ['actor'] });
}

/** A tRPC mutation as the web client sends it (superjson's envelope), answered with tRPC's own error shape. */
async function trpcMutation(path: string, token: string, input: unknown) {
  const response = await server.app.inject({
    method: 'POST',
    url: `/trpc/${path}`,
    headers: { authorization: token },
    payload: { json: input },
  });
  const body = response.json() as {
    result?: { data: { json: unknown } };
    error?: { json: { message: string; data: { appCode: string } } };
  };
  return {
    status: response.statusCode,
    data: body.result?.data.json,
    message: body.error?.json.message,
    appCode: body.error?.json.data.appCode,
  };
}

async function roomOf(owner: TTestOwner, token = owner.token): Promise<{ id: string; name: string }> {
  const name = uniqueRoomName('impersonated');
  const created = await rest<{ id: string }>(server.app, 'POST', '/api/room/createRoom', {
    token,
    body: { name, region: 'local', image: 'chromium-blank' },
  });
  expect(created, JSON.stringify(created.data)).toMatchObject({ status: 200, msg: 'success' });
  return { id: created.data.id, name };
}

describe('a session an administrator opened as a user', () => {
  it('writes every change to the audit log with the administrator as actor and the user as target', async () => {
    const user = await createOwner(server.app);
    const asUser = await impersonate(server.app, admin.token, user.userId);
    const email = (await auditRows(user.userId))[0]?.targetLabel;

    // Over REST: a room created with a share password, which the log does not keep.
    const name = uniqueRoomName('by-admin');
    const created = await rest<{ id: string }>(server.app, 'POST', '/api/room/createRoom', {
      token: asUser,
      body: { name, region: 'local', image: 'chromium-blank', password: 'open sesame' },
      ip: '198.51.100.23',
    });
    expect(created, JSON.stringify(created.data)).toMatchObject({ status: 200, msg: 'success' });
    // Over tRPC: the room listed in the square.
    const shared = await trpcMutation('room.updateRoomShare', asUser, {
      id: created.data.id,
      isPublic: true,
    });
    expect(shared.status, shared.message).toBe(200);
    // Reading changes nothing and is not logged; a refused change changed nothing either.
    expect((await rest(server.app, 'GET', '/api/room/getRoomList', { token: asUser })).status).toBe(200);
    const invalid = await trpcMutation('room.updateRoomShare', asUser, {
      id: created.data.id,
      isPublic: 'yes',
    });
    expect(invalid.status).toBe(400);
    // The user's own changes are theirs, not the administrator's: no row.
    await roomOf(user);

    // Rows written within the same millisecond have no order of their own: compared by action.
    const rows = (await auditRows(user.userId))
      .filter((row) => row.action.startsWith('impersonation.'))
      .sort((a, b) => a.action.localeCompare(b.action));
    expect(
      rows.map((row) => ({
        action: row.action,
        actor: row.actor?.id,
        actorLabel: row.actorLabel,
        targetType: row.targetType,
        targetLabel: row.targetLabel,
        after: row.after,
      })),
    ).toEqual([
      {
        action: 'impersonation.room.createRoom',
        actor: admin.userId,
        actorLabel: admin.email,
        targetType: 'user',
        targetLabel: email,
        after: {
          input: { name, region: 'local', image: 'chromium-blank', password: '(hidden)' },
          id: created.data.id,
        },
      },
      {
        action: 'impersonation.room.updateRoomShare',
        actor: admin.userId,
        actorLabel: admin.email,
        targetType: 'user',
        targetLabel: email,
        after: { input: { id: created.data.id, isPublic: true }, id: created.data.id },
      },
    ]);
    expect(rows[0]?.ip).toBe('198.51.100.23');
    expect(JSON.stringify(rows)).not.toContain('open sesame');

    // The administrator's audit log shows them, and finds them by the administrator.
    const listed = await rest<{ items: { action: string; actor: string }[] }>(
      server.app,
      'GET',
      '/api/admin/audit/list',
      { token: admin.token, query: { targetId: user.userId, action: 'impersonation.' } },
    );
    expect(listed.data.items.map((item) => [item.action, item.actor]).sort()).toEqual([
      ['impersonation.room.createRoom', admin.email],
      ['impersonation.room.updateRoomShare', admin.email],
    ]);
  });

  it('refuses deleting a room, paying and the password over tRPC and REST, and logs each attempt', async () => {
    const user = await createOwner(server.app);
    const room = await roomOf(user);
    const asUser = await impersonate(server.app, admin.token, user.userId);

    const overRest = await rest(server.app, 'POST', '/api/room/deleteRoom', {
      token: asUser,
      query: { id: room.id, name: room.name },
    });
    expect(overRest).toMatchObject({ status: 403, msg: 'error', data: FORBIDDEN });
    const refusals = [
      await trpcMutation('room.deleteRoom', asUser, { id: room.id }),
      await trpcMutation('pay.recharge', asUser, { method: 'sandbox', amount: 5 }),
      await trpcMutation('user.updatePassword', asUser, {
        oldPassword: 'whatever',
        newPassword: 'another one',
      }),
    ];
    for (const refused of refusals) {
      expect(refused).toMatchObject({ status: 403, message: FORBIDDEN, appCode: 'IMPERSONATION_FORBIDDEN' });
    }
    expect(await server.app.orm.em.fork().count(Room, { id: room.id })).toBe(1);

    const attempts = (await auditRows(user.userId)).filter((row) => row.action === 'impersonation.refused');
    expect(attempts.map((row) => [row.actor?.id, row.after?.procedure]).sort()).toEqual([
      [admin.userId, 'pay.recharge'],
      [admin.userId, 'room.deleteRoom'],
      [admin.userId, 'room.deleteRoom'],
      [admin.userId, 'user.updatePassword'],
    ]);
    // The passwords typed are not kept.
    expect(attempts.find((row) => row.after?.procedure === 'user.updatePassword')?.after).toEqual({
      procedure: 'user.updatePassword',
      input: { oldPassword: '(hidden)', newPassword: '(hidden)' },
    });

    // The owner in their own session may.
    const deleted = await rest(server.app, 'POST', '/api/room/deleteRoom', {
      token: user.token,
      query: { id: room.id, name: room.name },
    });
    expect(deleted).toMatchObject({ status: 200, msg: 'success' });
    expect(await server.app.orm.em.fork().count(Room, { id: room.id })).toBe(0);
  });
});
