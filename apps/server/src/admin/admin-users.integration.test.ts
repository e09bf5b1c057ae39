// The admin's account actions against the real server: disabling ends sessions and sockets and stops rooms within
// a second; the sign-in link works once, for five minutes, and the session it opens may not pay or change the
// password; the balance moves only with a reason; and every action leaves exactly one audit row.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOM_CLOSE_CODES, roomSocketPath, type TRoomTicketResponse } from '@rooms/api/room-protocol';
import { AuditEntry, Plan, Room, User } from '@rooms/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin } from '../testing/admin-accounts';
import { rest } from '../testing/rest-client';
import { RoomClient } from '../testing/room-client';
import { createOwner, type TTestOwner, uniqueRoomName } from '../testing/room-test-users';
import { startTestServer, type TTestServer } from '../testing/test-server';

let server: TTestServer;
let roomsDataDir: string;
let admin: TTestOwner & { email: string };

beforeAll(async () => {
  roomsDataDir = await mkdtemp(join(tmpdir(), 'rooms-admin-'));
  server = await startTestServer({ env: { ROOMS_DATA_DIR: roomsDataDir } });
  admin = await createAdmin(server.app);
});

afterAll(async () => {
  await server?.close();
  await rm(roomsDataDir, { recursive: true, force: true });
});

function asAdmin<T = unknown>(method: 'GET' | 'POST', path: string, input: Record<string, unknown> = {}) {
  return rest<T>(server.app, method, `/api/admin/${path}`, {
    token: admin.token,
    ...(method === 'GET' ? { query: input as Record<string, string> } : { body: input }),
  });
}

async function auditRows(targetId: string): Promise<AuditEntry[]> {
  return server.app.orm.em.fork().find(AuditEntry, { targetId }, { orderBy: { createdAt: 'asc' } });
}

/** A browser in the room: the owner with a token, or a guest without. */
async function enter(roomId: string, token: string | null, nickname = 'Owner'): Promise<RoomClient> {
  const response = await server.app.inject({
    method: 'POST',
    url: '/ws/ticket',
    headers: token ? { authorization: token } : {},
    payload: { roomId },
  });
  expect(response.statusCode, response.body).toBe(200);
  const { ticket } = response.json() as TRoomTicketResponse;
  const url = `${server.url.replace(/^http/, 'ws')}${roomSocketPath(roomId)}?ticket=${encodeURIComponent(ticket)}`;
  const client = await RoomClient.connect(url, { origin: new URL(server.config.publicUrl).origin });
  client.send({ type: 'member/join', nickname });
  await client.next('member/list');
  return client;
}

describe('disabling an account', () => {
  // How soon (within a second): bench/start.ts, owner disabled.
  it('ends its sessions, closes its sockets and stops its rooms, saying why', async () => {
    const owner = await createOwner(server.app);
    const created = await rest<{ id: string }>(server.app, 'POST', '/api/room/createRoom', {
      token: owner.token,
      body: { name: uniqueRoomName('disable'), region: 'local', image: 'chromium-blank' },
    });
    expect(created.msg, JSON.stringify(created.data)).toBe('success');
    const roomId = created.data.id;
    const started = await rest(server.app, 'POST', '/api/room/startRoom', {
      token: owner.token,
      query: { id: roomId },
    });
    expect(started).toMatchObject({ msg: 'success', data: { state: 'running' } });
    const socket = await enter(roomId, owner.token);
    await server.app.orm.em.fork().nativeUpdate(Room, { id: roomId }, { isPublic: true });
    const guest = await enter(roomId, null, 'Gus');

    const listed = await asAdmin<{ id: string; members: number; mediaPath: string | null }[]>(
      'GET',
      'rooms/list',
    );
    expect(listed.data.find((room) => room.id === roomId)).toMatchObject({ members: 2 });

    const disabled = await asAdmin('POST', 'users/setDisabled', {
      userId: owner.userId,
      disabled: true,
      reason: 'Abuse report',
    });
    expect(disabled).toMatchObject({ status: 200, data: { ok: true } });
    await socket.until(() => socket.closed !== undefined, 'the socket to close');
    // The owner is told the account was disabled, not that they were signed out; the guest that the room has
    // ended, not that it will be back, and their page stops waiting for it (a close code of its own).
    expect(socket.closed?.code).toBe(ROOM_CLOSE_CODES.ACCOUNT_DISABLED);
    expect(socket.of('system/error').at(-1)).toMatchObject({
      code: 'ACCOUNT_DISABLED',
      message: 'Your account has been disabled; your rooms have ended',
    });
    expect((await guest.closedWith()).code).toBe(ROOM_CLOSE_CODES.OWNER_DISABLED);
    expect(guest.of('system/room-ended')).toEqual([
      { type: 'system/room-ended', reason: 'account-disabled', by: null },
    ]);
    expect(guest.of('system/error').at(-1)).toMatchObject({
      code: 'OWNER_DISABLED',
      message: 'This room has ended: its owner’s account has been disabled',
    });
    expect(server.app.roomEngine.state(roomId)).toBe('stopped');
    const stored = await server.app.orm.em.fork().findOneOrFail(Room, roomId);
    expect(stored.state).toBe('stopped');
    const userinfo = await rest(server.app, 'GET', '/api/user/userinfo', { token: owner.token });
    expect(userinfo.status).toBe(401);

    const enabled = await asAdmin('POST', 'users/setDisabled', {
      userId: owner.userId,
      disabled: false,
      reason: 'Appeal accepted',
    });
    expect(enabled.status).toBe(200);
    expect((await auditRows(owner.userId)).map((row) => [row.action, row.before, row.after])).toEqual([
      ['user.disable', { disabled: false }, { disabled: true }],
      ['user.enable', { disabled: true }, { disabled: false }],
    ]);
  });

  it('stops any room from the room list and from a report, with one audit row each', async () => {
    const owner = await createOwner(server.app);
    const created = await rest<{ id: string }>(server.app, 'POST', '/api/room/createRoom', {
      token: owner.token,
      body: { name: uniqueRoomName('stop'), region: 'local', image: 'chromium-blank', isPublic: true },
    });
    const roomId = created.data.id;
    const start = () =>
      rest(server.app, 'POST', '/api/room/startRoom', { token: owner.token, query: { id: roomId } });
    expect(await start()).toMatchObject({ data: { state: 'running' } });
    const listed = await asAdmin<
      { id: string; state: string; mediaPath: string | null; uptimeSeconds: number }[]
    >('GET', 'rooms/list');
    expect(listed.data.find((room) => room.id === roomId)).toMatchObject({ state: 'running' });
    expect(await asAdmin('POST', 'rooms/stop', { roomId, reason: 'Abuse report' })).toMatchObject({
      status: 200,
    });
    expect(server.app.roomEngine.state(roomId)).toBe('stopped');
    expect((await auditRows(roomId)).map((row) => [row.action, row.before, row.after])).toEqual([
      ['room.stop', { state: 'running' }, { state: 'stopped' }],
    ]);

    expect(await start()).toMatchObject({ data: { state: 'running' } });
    const reported = await rest<{ id: string }>(server.app, 'POST', '/api/room/reportRoom', {
      token: admin.token,
      body: { id: roomId, reason: 'Shows something it should not' },
    });
    expect(reported.msg, JSON.stringify(reported.data)).toBe('success');
    const resolved = await asAdmin('POST', 'reports/resolve', {
      reportId: reported.data.id,
      action: 'stop',
      reason: 'Confirmed',
    });
    expect(resolved).toMatchObject({ status: 200, data: { resolution: 'stop', roomState: 'stopped' } });
    expect(server.app.roomEngine.state(roomId)).toBe('stopped');
    expect((await auditRows(reported.data.id)).map((row) => row.action)).toEqual(['report.stop']);
  });

  it('refuses an administrator disabling their own account', async () => {
    const refused = await asAdmin('POST', 'users/setDisabled', {
      userId: admin.userId,
      disabled: true,
      reason: 'Testing',
    });
    expect(refused).toMatchObject({ status: 400, data: 'You cannot disable your own account' });
  });
});

describe('the sign-in link', () => {
  it('signs in once, as the user, with an impersonated session that cannot pay or change the password', async () => {
    const user = await createOwner(server.app);
    const link = await asAdmin<{ url: string; expiresAt: string }>('POST', 'users/createLoginLink', {
      userId: user.userId,
      reason: 'Support ticket',
    });
    // Without PUBLIC_URL the link follows the address the administrator's page was opened by.
    expect(link.data.url).toMatch(/^http:\/\/localhost:80\/admintologinuser\/[A-Za-z0-9_-]{32,}$/);
    const token = link.data.url.split('/admintologinuser/')[1];

    const opened = await rest<{ token: string; username: string }>(
      server.app,
      'POST',
      '/api/user/adminLogin',
      {
        body: { token },
      },
    );
    expect(opened).toMatchObject({ status: 200, data: { username: user.username } });
    const replay = await rest(server.app, 'POST', '/api/user/adminLogin', { body: { token } });
    expect(replay).toMatchObject({ status: 400, data: 'This sign-in link is invalid or has expired' });

    const session = opened.data.token;
    const userinfo = await rest<{
      username: string;
      impersonation: { adminEmail: string; expiresAt: string };
    }>(server.app, 'GET', '/api/user/userinfo', { token: session });
    expect(userinfo.data.username).toBe(user.username);
    expect(userinfo.data.impersonation.adminEmail).toBe(admin.email);
    // Short-lived: an hour, not the day of a real sign-in.
    const lasts = new Date(userinfo.data.impersonation.expiresAt).getTime() - Date.now();
    expect(lasts).toBeGreaterThan(55 * 60_000);
    expect(lasts).toBeLessThanOrEqual(60 * 60_000);

    const forbidden = 'This is not available while an administrator is signed in as this user';
    const attempts = [
      rest(server.app, 'POST', '/api/user/updatePassword', {
        token: session,
        body: { oldPassword: 'whatever', newPassword: 'another one' },
      }),
      rest(server.app, 'POST', '/api/pay/recharge', {
        token: session,
        body: { method: 'sandbox', amount: 5 },
      }),
      rest(server.app, 'GET', '/api/pay/switchRenew', { token: session, query: { flag: 'true' } }),
      rest(server.app, 'POST', '/api/pay/claimFreePlan', { token: session }),
    ];
    for (const attempt of await Promise.all(attempts))
      expect(attempt).toMatchObject({ status: 403, data: forbidden });
    // The user's own session still may.
    const own = await rest(server.app, 'POST', '/api/pay/recharge', {
      token: user.token,
      body: { method: 'sandbox', amount: 5 },
    });
    expect(own.status).toBe(200);

    // Listed on the user's page, marked with the administrator.
    const detail = await asAdmin<{ sessions: { impersonatedBy: string | null }[] }>('GET', 'users/get', {
      userId: user.userId,
    });
    const markers = detail.data.sessions.map((row) => row.impersonatedBy);
    expect(markers).toHaveLength(2);
    expect(markers).toEqual(expect.arrayContaining([admin.email, null]));

    // Each refused attempt too, as the administrator's.
    expect((await auditRows(user.userId)).map((row) => [row.action, row.actorLabel]).sort()).toEqual([
      ...attempts.map(() => ['impersonation.refused', admin.email]),
      ['loginLink.create', admin.email],
      ['loginLink.use', admin.email],
    ]);
  });

  it('expires after five minutes', async () => {
    const user = await createOwner(server.app);
    const services = server.app.services;
    const realNow = services.now;
    const links = await Promise.all(
      [0, 1].map(() =>
        asAdmin<{ url: string }>('POST', 'users/createLoginLink', {
          userId: user.userId,
          reason: 'Support ticket',
        }),
      ),
    );
    const [early, late] = links.map((link) => link.data.url.split('/admintologinuser/')[1]);
    try {
      services.now = () => new Date(Date.now() + 4 * 60_000 + 50_000);
      const inTime = await rest(server.app, 'POST', '/api/user/adminLogin', { body: { token: early } });
      expect(inTime.status).toBe(200);
      services.now = () => new Date(Date.now() + 5 * 60_000 + 1000);
      const expired = await rest(server.app, 'POST', '/api/user/adminLogin', { body: { token: late } });
      expect(expired).toMatchObject({ status: 400, data: 'This sign-in link is invalid or has expired' });
    } finally {
      services.now = realNow;
    }
    const unknown = await rest(server.app, 'POST', '/api/user/adminLogin', {
      body: { token: 'x'.repeat(43) },
    });
    expect(unknown).toMatchObject({ status: 400, data: 'This sign-in link is invalid or has expired' });
  });
});

describe('account actions', () => {
  it('moves the balance only with a reason, through the ledger', async () => {
    const user = await createOwner(server.app);
    const refusals = await Promise.all([
      asAdmin('POST', 'users/adjustBalance', { userId: user.userId, amount: 10 }),
      asAdmin('POST', 'users/adjustBalance', { userId: user.userId, amount: 10, reason: '   ' }),
      asAdmin('POST', 'users/adjustBalance', { userId: user.userId, amount: 0, reason: 'nothing' }),
      asAdmin('POST', 'users/adjustBalance', {
        userId: user.userId,
        amount: 1.001,
        reason: 'a tenth of a cent',
      }),
    ]);
    expect(refusals.map((reply) => [reply.status, reply.data])).toEqual([
      [400, 'Please give a reason'],
      [400, 'Please give a reason'],
      [400, 'The amount cannot be zero'],
      [400, 'The amount must be in whole cents'],
    ]);
    expect(await auditRows(user.userId)).toEqual([]);

    const credited = await asAdmin('POST', 'users/adjustBalance', {
      userId: user.userId,
      amount: 12.34,
      reason: 'Goodwill for the outage',
    });
    expect(credited.status).toBe(200);
    // The balance is prepaid: a debit beyond it is refused and writes nothing.
    const overdraft = await asAdmin('POST', 'users/adjustBalance', {
      userId: user.userId,
      amount: -20,
      reason: 'More than there is',
    });
    expect([overdraft.status, overdraft.data]).toEqual([
      409,
      'The balance (12.34 USD) is less than the debit (20.00 USD); a balance cannot go below zero',
    ]);
    const detail = await asAdmin<{
      balance: number;
      ledger: { amount: number; kind: string; note: string }[];
    }>('GET', 'users/get', { userId: user.userId });
    expect(detail.data.balance).toBe(12.34);
    expect(detail.data.ledger).toMatchObject([
      { amount: 12.34, kind: 'adjustment', note: 'Goodwill for the outage' },
    ]);
    const [row] = await auditRows(user.userId);
    expect(row).toMatchObject({
      action: 'user.adjustBalance',
      before: { balance: '0.00' },
      after: { balance: '12.34' },
      reason: 'Goodwill for the outage',
      actorLabel: admin.email,
      ip: '127.0.0.1',
    });
  });

  it('leaves one audit row for each action', async () => {
    const user = await createOwner(server.app);
    const pro = await server.app.orm.em.fork().findOneOrFail(Plan, { code: 'pro' });
    const actions: [string, string, Record<string, unknown>][] = [
      ['user.setLevel', 'users/setLevel', { level: 3 }],
      ['user.grantPlan', 'users/grantPlan', { planId: pro.id, days: 30 }],
      ['user.sendPasswordReset', 'users/sendPasswordReset', {}],
      ['user.endSessions', 'users/endSessions', {}],
    ];
    for (const [action, path, input] of actions) {
      const before = (await auditRows(user.userId)).length;
      const reply = await asAdmin('POST', path, { userId: user.userId, ...input, reason: 'Support ticket' });
      expect(reply, `${path}: ${JSON.stringify(reply.data)}`).toMatchObject({ status: 200 });
      const rows = await auditRows(user.userId);
      expect(rows.length, action).toBe(before + 1);
      expect(rows.at(-1)?.action).toBe(action);
    }

    const detail = await asAdmin<{
      user: { level: number; email: string };
      plan: { name: string; expiresAt: string | null };
    }>('GET', 'users/get', { userId: user.userId });
    // Granting Pro does not lower the level the administrator set before it (3, above Pro's).
    expect(detail.data.plan.name).toBe(pro.name);
    expect(pro.level).toBeLessThan(3);
    expect(detail.data.user.level).toBe(3);
    const days = (new Date(detail.data.plan.expiresAt ?? 0).getTime() - Date.now()) / 86_400_000;
    expect(Math.round(days)).toBe(30);
    // The password-reset code really went out, and the sessions really ended.
    const mail = await server.smtp.nextMail(detail.data.user.email);
    expect(mail.code).toMatch(/^\d{6}$/);
    expect((await rest(server.app, 'GET', '/api/user/userinfo', { token: user.token })).status).toBe(401);
  });

  it('finds accounts by e-mail or name, page by page, newest first', async () => {
    const tag = `find${Date.now().toString(36)}`;
    const made: TTestOwner[] = [];
    for (let index = 0; index < 5; index++) made.push(await createOwner(server.app));
    // The owners' names share no tag; give them one through the database as sign-ups would, a second apart: two
    // accounts made in the same millisecond have no newest between them.
    const em = server.app.orm.em.fork();
    const first = Date.now() - made.length * 1000;
    for (const [index, owner] of made.entries()) {
      await em.nativeUpdate(
        User,
        { id: owner.userId },
        { username: `${tag}-${index}`, createdAt: new Date(first + index * 1000) },
      );
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await asAdmin<{ items: { username: string }[]; nextCursor: string | null }>(
        'GET',
        'users/list',
        {
          query: tag,
          limit: '2',
          ...(cursor ? { cursor } : {}),
        },
      );
      expect(page.status).toBe(200);
      expect(page.data.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.data.items.map((item) => item.username));
      cursor = page.data.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual([4, 3, 2, 1, 0].map((index) => `${tag}-${index}`));

    const bad = await asAdmin('GET', 'users/list', { cursor: 'not-a-cursor' });
    expect(bad).toMatchObject({
      status: 400,
      data: 'The page cursor is not valid; start from the first page',
    });
  });
});
