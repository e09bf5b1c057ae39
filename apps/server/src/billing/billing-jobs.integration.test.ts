// Scheduled billing work on the pg-boss queue against the real server: unpaid bills expire, renewals with and
// without enough balance (a lapse to Free stops the rooms it no longer allows), and room time: a running room
// (a real Chromium) spends its owner's quota, is stopped with a notice when none is left, and cannot start again.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { billing } from '@rooms/api';
import { BalanceEntry, Payment, Plan, Region, Room, Subscription, SystemImage, User } from '@rooms/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_JOBS } from '../services/billing-jobs/billing-jobs';
import { rest } from '../testing/rest-client';
import { createOwner, type TTestOwner, uniqueRoomName } from '../testing/room-test-users';
import { startTestServer, type TTestServer } from '../testing/test-server';

let server: TTestServer;
let roomsDataDir: string;

beforeAll(async () => {
  roomsDataDir = await mkdtemp(join(tmpdir(), 'rooms-billing-'));
  server = await startTestServer({
    listen: false,
    env: { BILLING_JOBS: 'on', ROOMS_DATA_DIR: roomsDataDir, ROOM_CAPACITY: '2' },
  });
});
afterAll(async () => {
  await server?.close();
  await rm(roomsDataDir, { recursive: true, force: true });
});

const em = () => server.app.orm.em.fork();

async function credit(userId: string, cents: number) {
  await billing.appendEntry(em() as never, {
    userId,
    amountCents: cents,
    kind: 'adjustment',
    externalKey: `test:${userId}:${Math.random()}`,
  });
}

/** A Pro subscription whose period ended a minute ago. */
async function lapsedPro(owner: TTestOwner, autoRenew: boolean) {
  const fork = em();
  const pro = await fork.findOneOrFail(Plan, { code: 'pro' });
  const subscription = fork.create(Subscription, {
    user: owner.userId,
    plan: pro,
    startsAt: new Date(Date.now() - 31 * 86_400_000),
    expiresAt: new Date(Date.now() - 60_000),
    autoRenew,
    timeQuotaSeconds: 0,
    priceCents: pro.priceCents,
    closedAt: null,
  });
  await fork.nativeUpdate(User, { id: owner.userId }, { level: pro.level });
  await fork.flush();
  return { pro, subscription };
}

function notices(owner: TTestOwner) {
  return rest<{ kind: string; planName: string; roomsStopped: number }[]>(
    server.app,
    'GET',
    '/api/pay/getNotices',
    {
      token: owner.token,
    },
  );
}

describe('the billing job queue', () => {
  it('expires unpaid bills through a queued job', async () => {
    const owner = await createOwner(server.app);
    const fork = em();
    const bill = fork.create(Payment, {
      user: owner.userId,
      outTradeNo: `T-expire-${owner.userId.slice(0, 8)}`,
      amountCents: 500,
      method: 'sandbox',
      expiresAt: new Date(Date.now() - 1000),
      paymentUrl: 'http://localhost/checkout',
      transactionNo: null,
      providerRef: null,
      paidAt: null,
    });
    await fork.flush();
    await server.app.billingJobs.enqueue(BILLING_JOBS.expirePayments);
    await expect
      .poll(async () => (await em().findOneOrFail(Payment, bill.id)).status, {
        timeout: 20_000,
        interval: 250,
      })
      .toBe('expired');
    const info = await rest<{ status: string; paymentUrl: string | null }>(
      server.app,
      'GET',
      '/api/pay/getPayInfo',
      {
        token: owner.token,
        query: { id: bill.id },
      },
    );
    expect(info.data).toMatchObject({ status: 'expired', paymentUrl: null });
  });

  it('renews a lapsed subscription when auto-renew is on and the balance covers it', async () => {
    const owner = await createOwner(server.app);
    const { pro } = await lapsedPro(owner, true);
    await credit(owner.userId, pro.priceCents + 1);
    await server.app.billingJobs.enqueue(BILLING_JOBS.renewals);
    await expect
      .poll(async () => (await notices(owner)).data.map((notice) => notice.kind), { timeout: 20_000 })
      .toEqual(['plan-renewed']);
    const plan = await rest<{ plan: { code: string }; autoRenew: boolean; balance: number }>(
      server.app,
      'GET',
      '/api/pay/getUserPlan',
      { token: owner.token },
    );
    expect(plan.data).toMatchObject({ plan: { code: 'pro' }, autoRenew: true, balance: 0.01 });
    expect((await em().findOneOrFail(User, owner.userId)).level).toBe(2);
  });

  it('falls back to Free without enough balance, and stops the rooms Free does not allow', async () => {
    const owner = await createOwner(server.app);
    await lapsedPro(owner, true);
    await credit(owner.userId, 100);
    // A 1080p room and a 720p one left running from the Pro days (rows only: the engine does not run them here).
    const fork = em();
    const [region, image] = [
      await fork.findOneOrFail(Region, { code: 'local' }),
      (await fork.find(SystemImage, {}, { limit: 1 }))[0],
    ];
    const roomOf = (height: number, width: number) =>
      fork.create(Room, {
        name: uniqueRoomName('pro'),
        password: null,
        state: 'running',
        lastStartedAt: new Date(),
        region,
        image: image as SystemImage,
        startUrl: null,
        maxConnections: 4,
        width,
        height,
        videoBitrateKbps: 2000,
        maxFrameRate: 30,
        owner: owner.userId,
      });
    const big = roomOf(1080, 1920);
    const small = roomOf(720, 1280);
    await fork.flush();
    await server.app.billingJobs.runNow(BILLING_JOBS.renewals);
    const plan = await rest<{ plan: { code: string }; balance: number; level: number }>(
      server.app,
      'GET',
      '/api/pay/getUserPlan',
      { token: owner.token },
    );
    expect(plan.data).toMatchObject({ plan: { code: 'free' }, balance: 1 });
    expect((await em().findOneOrFail(User, owner.userId)).level).toBe(1);
    expect((await notices(owner)).data).toEqual([
      expect.objectContaining({ kind: 'plan-lapsed', planName: 'Pro monthly', roomsStopped: 1 }),
    ]);
    expect((await em().findOneOrFail(Room, big.id)).state).toBe('stopped');
    expect((await em().findOneOrFail(Room, small.id)).state).toBe('running');
    // Nothing was debited for the failed renewal.
    expect(await em().count(BalanceEntry, { user: owner.userId, kind: 'purchase' })).toBe(0);
  });
});

describe('room time', () => {
  it('charges a room from where the stored meter left off, so a restart neither forgets nor double-charges', async () => {
    const owner = await createOwner(server.app);
    const fork = em();
    const started = new Date(Date.now() - 120_000);
    const room = await createRoom(owner);
    await fork.nativeUpdate(Room, { id: room.id }, { lastStartedAt: started });
    const first = await billing.advanceMeter(
      em() as never,
      { id: room.id, lastStartedAt: started },
      new Date(started.getTime() + 120_000),
      300,
    );
    expect(first).toBe(120);
    // Another process (or this one after a restart) ticks a minute later: only that minute is new.
    const second = await billing.advanceMeter(
      em() as never,
      { id: room.id, lastStartedAt: started },
      new Date(started.getTime() + 180_000),
      300,
    );
    expect(second).toBe(60);
  });

  it('stops a running room with a notice when its owner’s time runs out, and refuses to start it again', async () => {
    const owner = await createOwner(server.app);
    const room = await createRoom(owner);
    const start = await rest<{ state: string }>(server.app, 'POST', '/api/room/startRoom', {
      token: owner.token,
      query: { id: room.id },
    });
    expect(start.data, JSON.stringify(start.data)).toMatchObject({ state: 'running' });

    // Metering while time is left changes nothing.
    await server.app.billingJobs.runNow(BILLING_JOBS.metering);
    expect(server.app.roomEngine.state(room.id)).toBe('running');

    // This month's free time is spent, and the owner holds no time quota.
    const free = await em().findOneOrFail(Plan, { code: 'free' });
    await em().execute(
      `insert into usage_months (id, user_id, month, free_used_seconds) values (gen_random_uuid(), ?, ?, ?)
       on conflict (user_id, month) do update set free_used_seconds = excluded.free_used_seconds`,
      [owner.userId, billing.monthOf(new Date()), free.freeTimeQuotaMinutes * 60],
    );
    await server.app.billingJobs.runNow(BILLING_JOBS.metering);
    expect(server.app.roomEngine.state(room.id)).toBe('stopped');
    expect((await em().findOneOrFail(Room, room.id)).state).toBe('stopped');
    expect((await notices(owner)).data).toEqual([
      expect.objectContaining({ kind: 'quota-exhausted', roomsStopped: 1 }),
    ]);

    const again = await rest(server.app, 'POST', '/api/room/startRoom', {
      token: owner.token,
      query: { id: room.id },
    });
    expect(again).toMatchObject({
      status: 403,
      data: 'Your room time is used up; buy a plan or wait for next month’s free time',
    });
    const plan = await rest<{ remainingFreeTimeQuotaSeconds: number; remainingTimeQuotaSeconds: number }>(
      server.app,
      'GET',
      '/api/pay/getUserPlan',
      { token: owner.token },
    );
    expect(plan.data).toMatchObject({ remainingFreeTimeQuotaSeconds: 0, remainingTimeQuotaSeconds: 0 });
  });
});

async function createRoom(owner: TTestOwner): Promise<{ id: string; name: string }> {
  const reply = await rest<{ id: string; name: string }>(server.app, 'POST', '/api/room/createRoom', {
    token: owner.token,
    body: { name: uniqueRoomName('metered'), region: 'local', image: 'chromium-blank' },
  });
  expect(reply.msg, JSON.stringify(reply.data)).toBe('success');
  return reply.data;
}
