// Users and rooms written straight into a test's database, for tests about something else than signing up: a user
// with a live session token (and a plan when asked), rooms with the product's usual settings. Tests that are about
// accounts go through the API (room-test-users.ts).
import { createHash, randomBytes } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { LOCAL_REGION_CODE, Plan, Region, Room, Session, Subscription, SystemImage, User } from '@rooms/db';

export interface TStoredUser {
  id: string;
  username: string;
  email: string;
  /** A live session's token, as the web app sends it in Authorization. */
  token: string;
}

let sequence = 0;

export async function storedUser(
  orm: MikroORM,
  options: { prefix?: string; plan?: string | null; passwordHash?: string } = {},
): Promise<TStoredUser> {
  sequence += 1;
  const suffix = `${Date.now().toString(36)}${sequence}${randomBytes(2).toString('hex')}`;
  const username = `${options.prefix ?? 'user'}${suffix}`.slice(0, 32);
  const em = orm.em.fork();
  const user = em.create(User, {
    username,
    email: `${username}@example.test`,
    passwordHash: options.passwordHash ?? 'not-used',
  });
  const token = randomBytes(32).toString('base64url');
  em.create(Session, {
    user,
    tokenHash: createHash('sha256').update(token).digest('hex'),
    expiresAt: new Date(Date.now() + 3_600_000),
  });
  const plan = options.plan === undefined ? 'pro' : options.plan;
  if (plan) {
    em.create(Subscription, {
      user,
      plan: await em.findOneOrFail(Plan, { code: plan }),
      startsAt: new Date(Date.now() - 60_000),
      expiresAt: null,
    });
  }
  await em.flush();
  return { id: user.id, username, email: user.email, token };
}

export interface TStoredRoomOptions {
  startUrl: string;
  name?: string;
  remark?: string;
  width?: number;
  height?: number;
  maxFrameRate?: number;
  videoBitrateKbps?: number;
  keepData?: boolean;
  password?: string | null;
  isPublic?: boolean;
  /** People at once (5 unless told). */
  maxConnections?: number;
  /** The secret of its knock link: people with the link may knock (none unless told). */
  knockToken?: string;
}

/** A stopped room of the owner's in the local zone, opening `startUrl`; 720p30 at 2 Mbit/s unless told. */
export async function storedRoom(
  orm: MikroORM,
  ownerId: string,
  options: TStoredRoomOptions,
): Promise<{ id: string; name: string }> {
  const em = orm.em.fork();
  sequence += 1;
  const room = em.create(Room, {
    name: options.name ?? `room-${Date.now().toString(36)}${sequence}${randomBytes(2).toString('hex')}`,
    remark: options.remark ?? '',
    password: options.password ?? null,
    isPublic: options.isPublic ?? false,
    region: await em.findOneOrFail(Region, { code: LOCAL_REGION_CODE }),
    image: await em.findOneOrFail(SystemImage, { code: 'chromium-url' }),
    startUrl: options.startUrl,
    maxConnections: options.maxConnections ?? 5,
    width: options.width ?? 1280,
    height: options.height ?? 720,
    videoBitrateKbps: options.videoBitrateKbps ?? 2000,
    maxFrameRate: options.maxFrameRate ?? 30,
    keepData: options.keepData ?? false,
    knockToken: options.knockToken ?? null,
    owner: em.getReference(User, ownerId),
  });
  await em.flush();
  return { id: room.id, name: room.name };
}
