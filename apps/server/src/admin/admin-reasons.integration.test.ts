// Every change an administrator makes says why, against the real server and database: each admin action that
// changes something refuses a missing, too short or too long reason with a text a person reads, and stores the one
// given, trimmed, in its audit row, which the audit log shows.
import { randomUUID } from 'node:crypto';
import { AuditEntry, Plan, Region, Room, RoomReport, SystemImage } from '@rooms/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin } from '../testing/admin-accounts';
import { rest } from '../testing/rest-client';
import { createOwner, type TTestOwner, uniqueRoomName } from '../testing/room-test-users';
import { startTestServer, type TTestServer } from '../testing/test-server';

let server: TTestServer;
let admin: TTestOwner & { email: string };

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  admin = await createAdmin(server.app);
});

afterAll(async () => {
  await server?.close();
});

function asAdmin<T = unknown>(path: string, body: Record<string, unknown>) {
  return rest<T>(server.app, 'POST', `/api/admin/${path}`, { token: admin.token, body });
}

/** A stopped room of the owner with an open report against it. */
async function reportedRoom(owner: TTestOwner): Promise<{ roomId: string; reportId: string }> {
  const em = server.app.orm.em.fork();
  const room = em.create(Room, {
    name: uniqueRoomName('reasons'),
    isPublic: true,
    state: 'stopped',
    region: await em.findOneOrFail(Region, { code: 'local' }),
    image: await em.findOneOrFail(SystemImage, { code: 'chromium-blank' }),
    startUrl: null,
    maxConnections: 5,
    width: 1280,
    height: 720,
    videoBitrateKbps: 2000,
    maxFrameRate: 30,
    owner: owner.userId,
  });
  const report = em.create(RoomReport, {
    room,
    roomName: room.name,
    reporter: null,
    reporterIp: '192.0.2.7',
    reason: 'Spam everywhere',
  });
  await em.flush();
  return { roomId: room.id, reportId: report.id };
}

/** Each admin change: its path, a valid input but for the reason, and the audit row it writes. */
async function changes(): Promise<
  { path: string; input: Record<string, unknown>; action: string; target: string }[]
> {
  const user = await createOwner(server.app);
  const other = await createOwner(server.app);
  const { roomId, reportId } = await reportedRoom(other);
  const em = server.app.orm.em.fork();
  const pro = await em.findOneOrFail(Plan, { code: 'pro' });
  const { userId } = user;
  const plan = {
    id: pro.id,
    name: pro.name,
    description: pro.description,
    price: pro.priceCents / 100,
    inventory: pro.inventory ?? null,
    maxRooms: pro.maxRooms,
    maxConnections: pro.maxConnections,
    maxWidth: pro.maxWidth,
    maxHeight: pro.maxHeight,
    maxFrameRate: pro.maxFrameRate,
    maxBitrateKbps: pro.maxBitrateKbps,
    timeQuotaMinutes: pro.timeQuotaMinutes,
    freeTimeQuotaMinutes: pro.freeTimeQuotaMinutes,
    enabled: pro.enabled,
    sortOrder: pro.sortOrder + 1,
  };
  return [
    { path: 'users/setDisabled', input: { userId, disabled: true }, action: 'user.disable', target: userId },
    { path: 'users/setDisabled', input: { userId, disabled: false }, action: 'user.enable', target: userId },
    { path: 'users/setLevel', input: { userId, level: 4 }, action: 'user.setLevel', target: userId },
    {
      path: 'users/grantPlan',
      input: { userId, planId: pro.id, days: 7 },
      action: 'user.grantPlan',
      target: userId,
    },
    {
      path: 'users/adjustBalance',
      input: { userId, amount: 2.5 },
      action: 'user.adjustBalance',
      target: userId,
    },
    { path: 'users/sendPasswordReset', input: { userId }, action: 'user.sendPasswordReset', target: userId },
    { path: 'users/createLoginLink', input: { userId }, action: 'loginLink.create', target: userId },
    { path: 'users/endSessions', input: { userId }, action: 'user.endSessions', target: userId },
    { path: 'rooms/stop', input: { roomId }, action: 'room.stop', target: roomId },
    { path: 'reports/resolve', input: { reportId, action: 'hide' }, action: 'report.hide', target: reportId },
    { path: 'plans/update', input: plan, action: 'plan.update', target: pro.id },
  ];
}

describe('the reason of an administrator’s change', () => {
  it('is required, 3 to 500 characters, for every change', async () => {
    const refund = { path: 'payments/refund', input: { paymentId: randomUUID() } };
    for (const { path, input } of [...(await changes()), refund]) {
      const count = await server.app.orm.em.fork().count(AuditEntry, {});
      const refusals = [
        [undefined, 'Please give a reason'],
        ['    ', 'Please give a reason'],
        [' ok ', 'The reason must be at least 3 characters'],
        ['x'.repeat(501), 'The reason can be at most 500 characters'],
      ] as const;
      for (const [reason, text] of refusals) {
        const refused = await asAdmin(path, { ...input, ...(reason === undefined ? {} : { reason }) });
        expect(refused, `${path} with ${JSON.stringify(reason)}`).toMatchObject({ status: 400, data: text });
      }
      // Refused before anything changed.
      expect(await server.app.orm.em.fork().count(AuditEntry, {}), path).toBe(count);
    }
  });

  it('is stored, trimmed, in the action’s audit row and shown in the audit log', async () => {
    for (const [index, { path, input, action, target }] of (await changes()).entries()) {
      const reason = `  Ticket #${index + 100}: asked by the account holder  `;
      const done = await asAdmin(path, { ...input, reason });
      expect(done, `${path}: ${JSON.stringify(done.data)}`).toMatchObject({ status: 200, msg: 'success' });
      const rows = await server.app.orm.em
        .fork()
        .find(AuditEntry, { targetId: target, action }, { orderBy: { createdAt: 'desc' }, limit: 1 });
      expect(rows[0]?.reason, action).toBe(reason.trim());

      const log = await rest<{ items: { action: string; reason: string | null }[] }>(
        server.app,
        'GET',
        '/api/admin/audit/list',
        { token: admin.token, query: { targetId: target, action } },
      );
      expect(log.data.items[0], action).toMatchObject({ action, reason: reason.trim() });
    }
  });
});
