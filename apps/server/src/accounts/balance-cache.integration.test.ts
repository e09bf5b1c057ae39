// The profile's balance is kept in memory between reads (packages/api/src/domains/billing/ledger.ts). A change to
// the ledger must still show at once: in the server that wrote it, and, through the ledger's trigger and NOTIFY,
// in every other process on the database, whoever wrote the entry.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin } from '../testing/admin-accounts';
import { rest } from '../testing/rest-client';
import { createOwner } from '../testing/room-test-users';
import { startTestServer, type TTestServer } from '../testing/test-server';

let server: TTestServer;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
});

afterAll(async () => {
  await server?.close();
});

const balanceOn = async (on: TTestServer, token: string) =>
  (await rest<{ balance: number }>(on.app, 'GET', '/api/user/userinfo', { token })).data.balance;

/** An entry written the way another process or an operator's SQL would: nothing in this process hears of it. */
async function creditBehindTheServersBack(userId: string, cents: number) {
  await server.app.orm.em.fork().execute(
    `insert into balance_entries (id, user_id, amount_cents, kind, external_key, created_at)
       values (gen_random_uuid(), ?, ?, 'adjustment', ?, now())`,
    [userId, cents, `test-${randomUUID()}`],
  );
}

describe('the balance cache', () => {
  it("shows an administrator's adjustment on the owner's next read", async () => {
    const admin = await createAdmin(server.app);
    const owner = await createOwner(server.app);
    expect(await balanceOn(server, owner.token)).toBe(0);
    const adjusted = await rest(server.app, 'POST', '/api/admin/users/adjustBalance', {
      token: admin.token,
      body: { userId: owner.userId, amount: 12.5, reason: 'goodwill' },
    });
    expect(adjusted.status).toBe(200);
    // Right away, without waiting for the database's notice: the commit itself evicted it here.
    expect(await balanceOn(server, owner.token)).toBe(12.5);
  });

  it('shows a ledger entry written by anyone else within moments, on every server', async () => {
    const databaseUrl = server.config.databaseUrl;
    if (!databaseUrl) throw new Error('the test server runs on a database of its own');
    const other = await startTestServer({ listen: false, env: { DATABASE_URL: databaseUrl } });
    try {
      const owner = await createOwner(server.app);
      // Read, and so cached, by both servers.
      expect(await balanceOn(server, owner.token)).toBe(0);
      expect(await balanceOn(other, owner.token)).toBe(0);
      await creditBehindTheServersBack(owner.userId, 700);
      // The ledger's trigger notifies: a moment, far less than the cache's 10 s lifetime.
      const deadline = Date.now() + 2000;
      const settled = async () =>
        (await balanceOn(server, owner.token)) === 7 && (await balanceOn(other, owner.token)) === 7;
      while (!(await settled()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(await balanceOn(server, owner.token)).toBe(7);
      expect(await balanceOn(other, owner.token)).toBe(7);
    } finally {
      await other.close();
    }
  });
});
