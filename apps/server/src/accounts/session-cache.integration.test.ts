// Signed-in reads reuse resolved sessions for a few seconds (packages/api/src/domains/accounts/session-cache.ts). What a
// user or an administrator changes must still show at once: logouts, levels, roles, a disabled account.
import { watchAccountChanges } from '@rooms/api';
import { User } from '@rooms/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin, impersonate } from '../testing/admin-accounts';
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

const userinfo = (token: string) =>
  rest<{ level: number; role: string; username: string }>(server.app, 'GET', '/api/user/userinfo', { token });

describe('the session cache', () => {
  it('answers a signed-in read from memory once the session has been resolved', async () => {
    const owner = await createOwner(server.app);
    expect((await userinfo(owner.token)).status).toBe(200);
    // With the session row gone behind the server's back (no event), the next read still passes: it came from
    // the cache. A logout or revocation through the product always sends the event (tests below).
    await server.app.orm.em.fork().execute('delete from sessions where user_id = ?', [owner.userId]);
    expect((await userinfo(owner.token)).status).toBe(200);
  });

  it('ends a cached session at logout', async () => {
    const owner = await createOwner(server.app);
    expect((await userinfo(owner.token)).status).toBe(200);
    expect((await rest(server.app, 'POST', '/api/user/logout', { token: owner.token })).status).toBe(200);
    expect((await userinfo(owner.token)).status).toBe(401);
  });

  it("shows an administrator's change of a level at once", async () => {
    const admin = await createAdmin(server.app);
    const owner = await createOwner(server.app);
    expect((await userinfo(owner.token)).data.level).toBe(1);
    const set = await rest(server.app, 'POST', '/api/admin/users/setLevel', {
      token: admin.token,
      body: { userId: owner.userId, level: 3, reason: 'Partner account' },
    });
    expect(set.status).toBe(200);
    expect((await userinfo(owner.token)).data.level).toBe(3);
  });

  it('refuses a disabled account at once', async () => {
    const admin = await createAdmin(server.app);
    const owner = await createOwner(server.app);
    expect((await userinfo(owner.token)).status).toBe(200);
    const disabled = await rest(server.app, 'POST', '/api/admin/users/setDisabled', {
      token: admin.token,
      body: { userId: owner.userId, disabled: true, reason: 'Abuse report' },
    });
    expect(disabled.status).toBe(200);
    expect((await userinfo(owner.token)).status).toBe(401);
  });

  it('refuses an administrator demoted behind its back, although their session is cached', async () => {
    const admin = await createAdmin(server.app);
    const list = () =>
      rest(server.app, 'GET', '/api/admin/users/list', { token: admin.token, query: { query: '' } });
    expect((await list()).status).toBe(200);
    // No ORM flush, no notification: as if the news were lost on the way to this process.
    await server.app.orm.em.nativeUpdate(User, { id: admin.userId }, { role: 'user' });
    expect((await userinfo(admin.token)).data.role).toBe('admin');
    expect((await list()).status).toBe(404);
  });

  it('ends the sessions an administrator opened as others once that administrator is disabled', async () => {
    const [admin, other] = [await createAdmin(server.app), await createAdmin(server.app)];
    const owner = await createOwner(server.app);
    const asOwner = await impersonate(server.app, admin.token, owner.userId);
    expect((await userinfo(asOwner)).status).toBe(200);
    const disabled = await rest(server.app, 'POST', '/api/admin/users/setDisabled', {
      token: other.token,
      body: { userId: admin.userId, disabled: true, reason: 'Left the team' },
    });
    expect(disabled.status).toBe(200);
    expect((await userinfo(asOwner)).status).toBe(401);
    expect((await userinfo(owner.token)).status).toBe(200);
  });

  it('tells another server on the same database: a logout and a new level there show at once', async () => {
    const databaseUrl = server.config.databaseUrl;
    if (!databaseUrl) throw new Error('the test server runs on a database of its own');
    const other = await startTestServer({ listen: false, env: { DATABASE_URL: databaseUrl } });
    try {
      const admin = await createAdmin(server.app);
      const [owner, leaving] = [await createOwner(server.app), await createOwner(server.app)];
      const there = (token: string) =>
        rest<{ level: number }>(other.app, 'GET', '/api/user/userinfo', { token });
      // Both sessions resolved, and so cached, by the other server.
      expect((await there(owner.token)).data.level).toBe(1);
      expect((await there(leaving.token)).status).toBe(200);

      expect((await rest(server.app, 'POST', '/api/user/logout', { token: leaving.token })).status).toBe(200);
      const set = await rest(server.app, 'POST', '/api/admin/users/setLevel', {
        token: admin.token,
        body: { userId: owner.userId, level: 3, reason: 'Partner account' },
      });
      expect(set.status).toBe(200);
      // The notices travel through PostgreSQL NOTIFY: a moment, far less than the cache's 10 s lifetime.
      const deadline = Date.now() + 2000;
      const settled = async () =>
        (await there(leaving.token)).status === 401 && (await there(owner.token)).data.level === 3;
      while (!(await settled()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect((await there(leaving.token)).status).toBe(401);
      expect((await there(owner.token)).data.level).toBe(3);
    } finally {
      await other.close();
    }
  });

  it('announces an account changed inside a transaction only once it is committed, and not after a rollback', async () => {
    const owner = await createOwner(server.app);
    const seen: string[] = [];
    watchAccountChanges(server.app.orm, {
      accountChanged: async (userId) => {
        if (userId === owner.userId) seen.push(userId);
      },
    });
    await server.app.orm.em.fork().transactional(async (tx) => {
      (await tx.findOneOrFail(User, owner.userId)).level = 3;
      await tx.flush();
      // Written but not committed: a cache told now could read the old row again and keep it.
      expect(seen).toEqual([]);
    });
    expect(seen).toEqual([owner.userId]);

    await expect(
      server.app.orm.em.fork().transactional(async (tx) => {
        (await tx.findOneOrFail(User, owner.userId)).level = 4;
        await tx.flush();
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(seen).toEqual([owner.userId]);

    const em = server.app.orm.em.fork();
    (await em.findOneOrFail(User, owner.userId)).level = 5;
    await em.flush();
    expect(seen).toEqual([owner.userId, owner.userId]);
  });
});
