import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BalanceEntry, Session, User } from './index';
import { Migration20261127231847_user_previous_login } from './migrations/Migration20261127231847_user_previous_login';
import { migrateAndSeed } from './orm';
import { createTestDatabase, type TestDatabase } from './testing';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db?.drop());

let sequence = 0;
function newUser(em: TestDatabase['orm']['em'], email = `user-${Date.now()}-${++sequence}@example.com`) {
  return em.create(User, { username: `user${sequence}`, email, passwordHash: 'argon2id$placeholder' });
}

describe('migrations', () => {
  it('bring an empty database exactly to the entities, and a second run is a no-op', async () => {
    expect(await db.orm.migrator.getPending()).toEqual([]);
    expect(await db.orm.schema.getUpdateSchemaSQL({ wrap: false })).toBe('');
    const executed = await db.orm.migrator.getExecuted();
    expect(executed.length).toBeGreaterThan(0);
    await migrateAndSeed(db.orm);
    expect(await db.orm.migrator.getExecuted()).toEqual(executed);
  });

  it('give new users their defaults', async () => {
    const em = db.orm.em.fork();
    const user = newUser(em);
    await em.flush();
    const loaded = await db.orm.em.fork().findOneOrFail(User, user.id);
    expect(loaded).toMatchObject({ avatar: '', level: 1, role: 'user', disabled: false, lastLoginAt: null });
    expect(loaded.id).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('users', () => {
  it('refuse a second account with the same e-mail', async () => {
    const email = `taken-${Date.now()}@example.com`;
    const em = db.orm.em.fork();
    newUser(em, email);
    await em.flush();

    const other = db.orm.em.fork();
    newUser(other, email);
    await expect(other.flush()).rejects.toBeInstanceOf(UniqueConstraintViolationException);
  });

  it('take their sessions and ledger with them when deleted', async () => {
    const em = db.orm.em.fork();
    const user = newUser(em);
    em.create(Session, { user, tokenHash: 'a'.repeat(64), expiresAt: new Date(Date.now() + 60_000) });
    em.create(BalanceEntry, { user, amountCents: 500, kind: 'recharge' });
    await em.flush();

    await db.orm.em.fork().nativeDelete(User, { id: user.id });
    const check = db.orm.em.fork();
    expect(await check.count(Session, { user: user.id })).toBe(0);
    expect(await check.count(BalanceEntry, { user: user.id })).toBe(0);
  });

  it('get the sign-in before their latest from their own sessions when the column arrives', async () => {
    const em = db.orm.em.fork();
    const admin = newUser(em);
    const user = newUser(em);
    const now = Date.now();
    const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000);
    const expiresAt = at(-60);
    user.lastLoginAt = at(5);
    user.lastLoginIp = '192.0.2.3';
    const session = (createdAt: Date, ip: string, impersonator: User | null = null) =>
      em.create(Session, {
        user,
        tokenHash: `${ip}-${createdAt.getTime()}`.padEnd(64, '0'),
        createdAt,
        expiresAt,
        ip,
        impersonator,
      });
    session(at(90), '192.0.2.1');
    session(at(30), '192.0.2.2');
    // An administrator's sign-in link is no sign-in of the user's.
    session(at(10), '198.51.100.9', admin);
    session(at(5), '192.0.2.3');
    const never = newUser(em);
    await em.flush();

    const migration = new Migration20261127231847_user_previous_login(em.getDriver(), db.orm.config);
    await migration.up();
    const backfill = migration.getQueries()[1];
    if (typeof backfill !== 'string') throw new Error('the backfill is one statement of SQL');
    await em.execute(backfill);
    const check = db.orm.em.fork();
    expect(await check.findOneOrFail(User, user.id)).toMatchObject({
      previousLoginIp: '192.0.2.2',
      previousLoginAt: at(30),
    });
    expect(await check.findOneOrFail(User, never.id)).toMatchObject({
      previousLoginIp: null,
      previousLoginAt: null,
    });
  });
});

describe('balance ledger', () => {
  it('credits an external key once and sums entries into the balance', async () => {
    const em = db.orm.em.fork();
    const user = newUser(em);
    const tradeNo = `otn-${Date.now()}`;
    em.create(BalanceEntry, { user, amountCents: 10_000, kind: 'recharge', externalKey: tradeNo });
    em.create(BalanceEntry, { user, amountCents: -2_550, kind: 'purchase' });
    em.create(BalanceEntry, { user, amountCents: -1_000, kind: 'purchase' });
    await em.flush();

    const replay = db.orm.em.fork();
    replay.create(BalanceEntry, {
      user: user.id,
      amountCents: 10_000,
      kind: 'recharge',
      externalKey: tradeNo,
    });
    await expect(replay.flush()).rejects.toBeInstanceOf(UniqueConstraintViolationException);

    const [row] = await db.orm.em
      .fork()
      .getConnection()
      .execute<{ balance: string }[]>(
        'select sum(amount_cents) as balance from balance_entries where user_id = ?',
        [user.id],
      );
    expect(Number(row?.balance)).toBe(6_450);
    const entries = await db.orm.em.fork().find(BalanceEntry, { user: user.id });
    expect(entries.map((entry) => entry.amountCents).sort((a, b) => a - b)).toEqual([-2_550, -1_000, 10_000]);
  });
});
