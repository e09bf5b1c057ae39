// The admin's catalogue, money and moderation screens against the real server: reports from the square and what
// each resolution does, the plan editor feeding the users' plan list, refunds through the ledger, and the audit
// log's filters.
import { AuditEntry, BalanceEntry, Payment, Plan, Region, Room, RoomReport, SystemImage } from '@rooms/db';
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

function asAdmin<T = unknown>(method: 'GET' | 'POST', path: string, input: Record<string, unknown> = {}) {
  return rest<T>(server.app, method, `/api/admin/${path}`, {
    token: admin.token,
    ...(method === 'GET' ? { query: input as Record<string, string> } : { body: input }),
  });
}

/** A public room marked running (the square lists running rooms) with a report against it. */
async function reportedRoom(owner: TTestOwner): Promise<{ roomId: string; reportId: string }> {
  const em = server.app.orm.em.fork();
  const room = em.create(Room, {
    name: uniqueRoomName('reported'),
    isPublic: true,
    state: 'running',
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

async function auditCount(targetId: string): Promise<number> {
  return server.app.orm.em.fork().count(AuditEntry, { targetId });
}

async function squareIds(viewer: TTestOwner): Promise<string[]> {
  const square = await rest<{ id: string }[] | { list: { id: string }[] }>(
    server.app,
    'GET',
    '/api/room/getPublicRoom',
    { token: viewer.token },
  );
  const list = Array.isArray(square.data) ? square.data : square.data.list;
  return list.map((room) => room.id);
}

describe('the reports queue', () => {
  it('lists open reports and dismisses one, leaving the room as it was', async () => {
    const owner = await createOwner(server.app);
    const { roomId, reportId } = await reportedRoom(owner);
    const open = await asAdmin<{ items: { id: string; reason: string; reporter: string | null }[] }>(
      'GET',
      'reports/list',
    );
    expect(open.data.items.find((item) => item.id === reportId)).toMatchObject({
      reason: 'Spam everywhere',
      reporter: null,
    });

    const dismissed = await asAdmin('POST', 'reports/resolve', {
      reportId,
      action: 'dismiss',
      reason: 'Not spam',
    });
    expect(dismissed).toMatchObject({
      status: 200,
      data: { resolution: 'dismiss', resolvedBy: admin.email },
    });
    const after = await asAdmin<{ items: { id: string }[] }>('GET', 'reports/list', { status: 'open' });
    expect(after.data.items.map((item) => item.id)).not.toContain(reportId);
    const resolved = await asAdmin<{ items: { id: string }[] }>('GET', 'reports/list', {
      status: 'resolved',
    });
    expect(resolved.data.items.map((item) => item.id)).toContain(reportId);
    expect(await squareIds(owner)).toContain(roomId);
    expect(await auditCount(reportId)).toBe(1);
  });

  it('hides a room from the square without touching its owner’s setting', async () => {
    const owner = await createOwner(server.app);
    const { roomId, reportId } = await reportedRoom(owner);
    expect(await squareIds(owner)).toContain(roomId);
    const hidden = await asAdmin('POST', 'reports/resolve', {
      reportId,
      action: 'hide',
      reason: 'Spam in the square',
    });
    expect(hidden).toMatchObject({ status: 200, data: { resolution: 'hide', roomHidden: true } });
    expect(await squareIds(owner)).not.toContain(roomId);
    const room = await server.app.orm.em.fork().findOneOrFail(Room, roomId);
    expect(room).toMatchObject({ isPublic: true, hiddenFromSquare: true });
    expect(await auditCount(reportId)).toBe(1);
  });

  it('disables the owner of a reported room', async () => {
    const owner = await createOwner(server.app);
    const { reportId } = await reportedRoom(owner);
    const done = await asAdmin('POST', 'reports/resolve', {
      reportId,
      action: 'disableOwner',
      reason: 'Repeated spam',
    });
    expect(done.status).toBe(200);
    expect((await rest(server.app, 'GET', '/api/user/userinfo', { token: owner.token })).status).toBe(401);
    // The report's row, and the account's own (user.disable) as for any disable.
    expect(await auditCount(reportId)).toBe(1);
    expect(await auditCount(owner.userId)).toBe(1);
  });

  it('refuses what it cannot do with a message', async () => {
    const unknown = await asAdmin('POST', 'reports/resolve', {
      reportId: '00000000-0000-4000-8000-000000000000',
      action: 'dismiss',
      reason: 'Not spam',
    });
    expect(unknown).toMatchObject({ status: 404, data: 'The report does not exist' });
    const badAction = await asAdmin('POST', 'reports/resolve', {
      reportId: '00000000-0000-4000-8000-000000000000',
      action: 'delete',
      reason: 'Spam',
    });
    expect(badAction).toMatchObject({ status: 400, data: 'Please choose what to do with the report' });
  });
});

describe('the plan editor', () => {
  it('changes a plan’s price, which the users’ plan list shows at once, with one audit row', async () => {
    const plans = await asAdmin<
      (Record<string, unknown> & { id: string; code: string; price: number; subscribers: number })[]
    >('GET', 'plans/list');
    const pro = plans.data.find((plan) => plan.code === 'pro');
    if (!pro) throw new Error('no pro plan');
    // The editor sends the whole plan back with the fields it shows.
    const fields = [
      'name',
      'description',
      'inventory',
      'maxRooms',
      'maxConnections',
      'maxWidth',
      'maxHeight',
      'maxFrameRate',
      'maxBitrateKbps',
      'timeQuotaMinutes',
      'freeTimeQuotaMinutes',
      'enabled',
      'sortOrder',
    ];
    const change = {
      id: pro.id,
      ...Object.fromEntries(fields.map((field) => [field, pro[field]])),
      reason: 'Spring price',
    };
    const updated = await asAdmin<{ price: number }>('POST', 'plans/update', { ...change, price: 7.77 });
    expect(updated).toMatchObject({ status: 200, data: { price: 7.77 } });
    const user = await createOwner(server.app);
    const offered = await rest<{ code: string; price: number }[]>(server.app, 'GET', '/api/pay/getPlanList', {
      token: user.token,
    });
    expect(offered.data.find((plan) => plan.code === 'pro')?.price).toBe(7.77);
    const rows = await server.app.orm.em.fork().find(AuditEntry, { targetId: pro.id });
    expect(rows.map((row) => [row.action, row.before, row.after])).toEqual([
      ['plan.update', { priceCents: Math.round(pro.price * 100) }, { priceCents: 777 }],
    ]);

    const refusals = await Promise.all([
      asAdmin('POST', 'plans/update', { ...change, price: -1 }),
      asAdmin('POST', 'plans/update', { ...change, price: 1.005 }),
      asAdmin('POST', 'plans/update', { ...change, price: 5, maxFrameRate: 120 }),
      asAdmin('POST', 'plans/update', { ...change, price: 5, name: ' ' }),
      asAdmin('POST', 'plans/update', { ...change, price: 5, name: ' free ' }),
    ]);
    expect(refusals.map((reply) => [reply.status, reply.data])).toEqual([
      [400, 'The price cannot be negative'],
      [400, 'The price must be in whole cents'],
      [400, 'The frame rate must be a whole number from 1 to 60'],
      [400, 'The plan needs a name'],
      [409, 'Another plan has this name; people could not tell the two apart'],
    ]);
    const free = plans.data.find((plan) => plan.isDefault === true);
    const freeOff = await asAdmin('POST', 'plans/update', {
      ...change,
      id: free?.id,
      price: 0,
      enabled: false,
    });
    expect(freeOff).toMatchObject({
      status: 400,
      data: 'The free plan everyone falls back to cannot be disabled',
    });
    const stored = await server.app.orm.em.fork().findOneOrFail(Plan, pro.id);
    expect(stored.priceCents).toBe(777);
  });
});

describe('payments', () => {
  it('refunds a paid bill once, through the ledger, and lists it across users', async () => {
    const user = await createOwner(server.app);
    const bill = await rest<{ id: string; out_trade_no: string; paymentUrl: string }>(
      server.app,
      'POST',
      '/api/pay/recharge',
      { token: user.token, body: { method: 'sandbox', amount: 20 } },
    );
    const checkout = new URL(bill.data.paymentUrl, 'http://localhost');
    const paid = await server.app.inject({
      method: 'POST',
      url: `${checkout.pathname}/pay`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `out_trade_no=${bill.data.out_trade_no}`,
    });
    expect(paid.statusCode).toBe(303);

    const listed = await asAdmin<{ items: { id: string; status: string; user: { id: string } }[] }>(
      'GET',
      'payments/list',
      { query: bill.data.out_trade_no },
    );
    expect(listed.data.items).toMatchObject([
      { id: bill.data.id, status: 'paid', user: { id: user.userId } },
    ]);
    const refreshed = await asAdmin('POST', 'payments/refresh', { paymentId: bill.data.id });
    expect(refreshed).toMatchObject({ status: 200, data: { status: 'paid' } });

    const noReason = await asAdmin('POST', 'payments/refund', { paymentId: bill.data.id });
    expect(noReason).toMatchObject({ status: 400, data: 'Please give a reason' });
    const [first, second] = await Promise.all([
      asAdmin('POST', 'payments/refund', { paymentId: bill.data.id, reason: 'Charged twice' }),
      asAdmin('POST', 'payments/refund', { paymentId: bill.data.id, reason: 'Charged twice' }),
    ]);
    expect([first?.status, second?.status].sort()).toEqual([200, 409]);
    const entries = await server.app.orm.em.fork().find(BalanceEntry, { user: user.userId, kind: 'refund' });
    expect(entries.map((entry) => entry.amountCents)).toEqual([-2000]);
    const userinfo = await rest<{ balance: number }>(server.app, 'GET', '/api/user/userinfo', {
      token: user.token,
    });
    expect(userinfo.data.balance).toBe(0);
    const stored = await server.app.orm.em.fork().findOneOrFail(Payment, bill.data.id);
    expect(stored.refundedAt).toBeInstanceOf(Date);
    const rows = await server.app.orm.em.fork().find(AuditEntry, { targetId: bill.data.id });
    expect(rows.map((row) => row.action).sort()).toEqual(['payment.refresh', 'payment.refund']);
  });
});

describe('the audit log', () => {
  it('filters by action, administrator and target, newest first', async () => {
    const user = await createOwner(server.app);
    await asAdmin('POST', 'users/setLevel', { userId: user.userId, level: 5, reason: 'Partner account' });
    await asAdmin('POST', 'users/setLevel', { userId: user.userId, level: 6, reason: 'Partner account' });
    const log = await asAdmin<{ items: { action: string; actor: string; after: { level: number } }[] }>(
      'GET',
      'audit/list',
      { targetId: user.userId, action: 'setLevel', actor: admin.email.slice(0, 12) },
    );
    expect(log.data.items.map((item) => [item.action, item.actor, item.after.level])).toEqual([
      ['user.setLevel', admin.email, 6],
      ['user.setLevel', admin.email, 5],
    ]);
    const none = await asAdmin<{ items: unknown[] }>('GET', 'audit/list', {
      targetId: user.userId,
      since: new Date(Date.now() + 60_000).toISOString(),
    });
    expect(none.data.items).toEqual([]);
  });

  it('cannot be changed or deleted, even by the application’s own database user', async () => {
    const em = server.app.orm.em.fork();
    const [row] = await em.find(AuditEntry, {}, { limit: 1 });
    if (!row) throw new Error('no audit rows yet');
    await expect(em.nativeUpdate(AuditEntry, { id: row.id }, { action: 'forged' })).rejects.toThrow(
      /append-only/,
    );
    await expect(em.nativeDelete(AuditEntry, { id: row.id })).rejects.toThrow(/append-only/);
  });
});
