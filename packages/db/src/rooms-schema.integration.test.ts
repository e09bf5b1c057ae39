// The room catalogues, plans and rooms as stored: seeded reference data, plan resolution, name uniqueness.
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Plan, planOf, Region, Room, Subscription, SystemImage, User } from './index';
import { migrateAndSeed } from './orm';
import { createTestDatabase, type TestDatabase } from './testing';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db?.drop());

let sequence = 0;
async function newUser() {
  const em = db.orm.em.fork();
  sequence += 1;
  const user = em.create(User, {
    username: `owner${sequence}`,
    email: `owner-${Date.now()}-${sequence}@example.com`,
    passwordHash: 'argon2id$placeholder',
  });
  await em.flush();
  return user;
}

describe('seeded reference data', () => {
  it('holds the local region, three images and a default Free plan below Pro', async () => {
    const em = db.orm.em.fork();
    expect(await em.findOneOrFail(Region, { code: 'local' })).toMatchObject({ enabled: true });
    const images = await em.find(SystemImage, {}, { orderBy: { sortOrder: 'asc' } });
    expect(images.map((image) => image.kind)).toEqual(['blank', 'video', 'url']);
    expect(images.find((image) => image.kind === 'url')?.startUrl).toBeNull();

    const free = await em.findOneOrFail(Plan, { code: 'free' });
    const pro = await em.findOneOrFail(Plan, { code: 'pro' });
    expect(free).toMatchObject({ isDefault: true, maxRooms: 2, maxHeight: 720, regionCodes: ['local'] });
    expect(pro.isDefault).toBe(false);
    expect(pro.maxRooms).toBeGreaterThan(free.maxRooms);
    expect(pro.maxHeight).toBeGreaterThan(free.maxHeight);
  });

  it('is not duplicated by a second run, and an operator’s change survives it', async () => {
    const em = db.orm.em.fork();
    await em.nativeUpdate(Plan, { code: 'free' }, { maxRooms: 3 });
    await migrateAndSeed(db.orm);
    const check = db.orm.em.fork();
    expect(await check.count(Plan, { code: 'free' })).toBe(1);
    expect(await check.count(Region, { code: 'local' })).toBe(1);
    expect(await check.count(SystemImage)).toBe(3);
    expect((await check.findOneOrFail(Plan, { code: 'free' })).maxRooms).toBe(3);
    await check.nativeUpdate(Plan, { code: 'free' }, { maxRooms: 2 });
  });
});

describe('planOf', () => {
  it('is the Free plan without a subscription, the subscribed plan while live, Free again after expiry', async () => {
    const user = await newUser();
    const em = db.orm.em.fork();
    expect((await planOf(em, user.id)).code).toBe('free');

    const pro = await em.findOneOrFail(Plan, { code: 'pro' });
    const now = new Date('2030-01-15T00:00:00Z');
    em.create(Subscription, {
      user: user.id,
      plan: pro,
      startsAt: new Date('2030-01-01T00:00:00Z'),
      expiresAt: new Date('2030-02-01T00:00:00Z'),
    });
    await em.flush();

    const read = db.orm.em.fork();
    expect((await planOf(read, user.id, now)).code).toBe('pro');
    expect((await planOf(read, user.id, new Date('2029-12-31T00:00:00Z'))).code).toBe('free');
    expect((await planOf(read, user.id, new Date('2030-02-01T00:00:00Z'))).code).toBe('free');
  });

  it('takes a permanent subscription as live forever', async () => {
    const user = await newUser();
    const em = db.orm.em.fork();
    const pro = await em.findOneOrFail(Plan, { code: 'pro' });
    em.create(Subscription, { user: user.id, plan: pro, startsAt: new Date('2020-01-01'), expiresAt: null });
    await em.flush();
    expect((await planOf(db.orm.em.fork(), user.id, new Date('2099-01-01'))).code).toBe('pro');
  });
});

describe('rooms', () => {
  async function newRoom(name: string, ownerId: string) {
    const em = db.orm.em.fork();
    const region = await em.findOneOrFail(Region, { code: 'local' });
    const image = await em.findOneOrFail(SystemImage, { kind: 'blank' });
    const room = em.create(Room, {
      name,
      region,
      image,
      owner: ownerId,
      startUrl: null,
      password: null,
      maxConnections: 4,
      width: 1280,
      height: 720,
      videoBitrateKbps: 2500,
      maxFrameRate: 30,
    });
    await em.flush();
    return room;
  }

  it('take the spec defaults: stopped, private, auto-close on after 20 minutes, no kept data', async () => {
    const user = await newUser();
    const room = await newRoom(`defaults-${Date.now()}`, user.id);
    const loaded = await db.orm.em.fork().findOneOrFail(Room, room.id);
    expect(loaded).toMatchObject({
      state: 'stopped',
      isPublic: false,
      autoClose: true,
      autoCloseMinutes: 20,
      keepData: false,
      remark: '',
      lastStartedAt: null,
    });
  });

  it('refuse a second room whose name differs only in case', async () => {
    const user = await newUser();
    const name = `Movie-${Date.now()}`;
    await newRoom(name, user.id);
    await expect(newRoom(name.toLowerCase(), user.id)).rejects.toBeInstanceOf(
      UniqueConstraintViolationException,
    );
  });
});
