// Builds the long-lived services the procedures use (mail, captcha, passwords, throttling, the room engine) and
// hands them to the request contexts.
import {
  admin,
  billing,
  effectiveSettings,
  type Mailer,
  type RoomEngine,
  RoomListCache,
  resumeRoom,
  SessionCache,
  setSharePasswordHasher,
  type TServices,
  watchAccountChanges,
  watchRoomListWrites,
} from '@rooms/api';
import { BALANCE_CHANGED_CHANNEL, Plan, planOf, ROOM_LIST_CHANGED_CHANNEL, Room, User } from '@rooms/db';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { TConfig } from '../env';
import { startLocalAgent } from '../fleet/local-agent';
import { startEgressProxy } from '../rooms/egress/egress-proxy';
import { ChromiumRoomEngine } from '../rooms/engine/chromium-room-engine';
import { startRoomStateSync } from '../rooms/room-state-sync';
import { type BillingJobs, startBillingJobs } from '../services/billing-jobs/billing-jobs';
import { createCaptcha } from '../services/captcha/create-captcha';
import { createPostgresOnceStore } from '../services/captcha-once-store';
import { createOutboxMailer } from '../services/mail/outbox-mailer';
import { createSmtpMailer } from '../services/mail/smtp-mailer';
import { startNodeMonitor } from '../services/node-monitor/node-monitor';
import { createArgon2Hasher } from '../services/passwords/argon2-hasher';
import { hashPlainSharePasswords } from '../services/passwords/plain-share-passwords';
import { createPayments, type TPaymentServices } from '../services/payments/create-gateway';
import { createMemoryRateLimiter } from '../services/rate-limit/memory-rate-limiter';
import { createRedisRateLimiter } from '../services/rate-limit/redis-rate-limiter';
import { createSecretBox } from '../services/secret-box/secret-box';
import { startSessionEvents, type TSessionEventBus } from '../services/session-events/session-events';

declare module 'fastify' {
  interface FastifyInstance {
    services: TServices;
    /** The same engine as services.rooms, with what the WebSocket relay needs (sessions, participant counts). */
    roomEngine: ChromiumRoomEngine;
    /** The same bus as services.sessionEvents, with the subscription the WebSocket relay listens on. */
    sessionEvents: TSessionEventBus;
    /** The same gateway as services.payments, with the providers whose notifications plugins/payments.ts takes. */
    payments: TPaymentServices;
    /** Bill expiry, renewals and room-time metering on the PostgreSQL job queue. */
    billingJobs: BillingJobs;
  }
}

export const servicesPlugin = fp(
  async (app, options: { config: TConfig }) => {
    const { config } = options;
    let mailer: Mailer;
    if (config.smtpUrl) {
      const smtp = createSmtpMailer({ url: config.smtpUrl, from: config.mailFrom });
      app.addHook('onClose', async () => smtp.close());
      mailer = smtp;
    } else {
      mailer = createOutboxMailer(app.orm, app.log);
    }

    const captcha = createCaptcha(
      {
        provider: config.captcha.provider,
        secret: config.appSecret,
        geetestId: config.captcha.geetestId,
        geetestKey: config.captcha.geetestKey,
        geetestApiServer: config.captcha.geetestApiServer,
      },
      createPostgresOnceStore(app.orm),
    );

    const rooms = new ChromiumRoomEngine({
      chromiumPath: config.rooms.chromiumPath,
      roomsDataDir: config.rooms.dataDir,
      capacity: config.rooms.capacity,
      warmPool: config.rooms.warmPool,
      media: config.rooms.media,
      sandbox: config.rooms.sandbox,
      egress: {
        start: ({ allow, socketPath }) =>
          // One proxy for every room: Chromium alone keeps up to 32 connections to it, pages add WebSockets.
          startEgressProxy({
            allow,
            socketPath,
            maxConnections: Math.max(512, config.rooms.capacity * 128),
            logger: app.log,
          }),
        allow: config.rooms.egressAllow,
      },
      logger: app.log,
    });
    // Said at start-up, not at the first room: an operator must see at once whether rooms are isolated. With
    // ROOM_SANDBOX=on and no way to isolate, the server does not start.
    await rooms.sandboxSupport();
    const roomsProblem = await rooms.preflight();
    if (roomsProblem)
      app.log.error({ problem: roomsProblem }, 'rooms cannot start on this server until this is fixed');
    // Registered before the engine's own close hook so it runs after it (onClose hooks run last-in first-out):
    // every change is stored, except that rooms stopped by the shutdown stay stored as running, to be resumed.
    const roomListCache = new RoomListCache();
    const roomStates = await startRoomStateSync({
      orm: app.orm,
      engine: rooms,
      logger: app.log,
      stored: (roomIds) => roomListCache.roomsChanged(roomIds),
    });
    app.addHook('onClose', async () => roomStates.close());
    // Rooms that ran when this server went down start again once it serves (their members' pages wait for them).
    // Then the warm pool fills for the likeliest next room, unless a resumed room has already shown its shape.
    app.addHook('onReady', async () => {
      void resumeInterruptedRooms(app, rooms, roomStates.interrupted).then(() => warmForLastRoom(app, rooms));
    });
    // No browser may outlive the server: every room stops (and keep-data profiles flush) before exit.
    app.addHook('onClose', async () => rooms.close());
    app.decorate('roomEngine', rooms);
    const node = startNodeMonitor({ engine: rooms });
    app.addHook('onClose', async () => node.close());
    // This server in the fleet's registry: its zones, its load at each heartbeat, and the sweep of silent ones.
    const agent = await startLocalAgent({ orm: app.orm, node, log: app.log });
    app.addHook('onClose', async () => agent.close());
    const sessionEvents = startSessionEvents(app.orm, app.log);
    app.addHook('onClose', async () => sessionEvents.close());
    app.decorate('sessionEvents', sessionEvents);
    // Signed-in requests reuse resolved sessions for a few seconds; every end and account change evicts at once.
    const sessionCache = new SessionCache();
    sessionEvents.subscribeChanges((change) => sessionCache.forget(change));
    watchAccountChanges(app.orm, sessionEvents);
    // Balances likewise: the ledger's trigger tells every process, the commit itself tells this one at once.
    const balanceCache = new billing.BalanceCache();
    sessionEvents.subscribeTable(BALANCE_CHANGED_CHANNEL, (change) =>
      'missed' in change ? balanceCache.clear() : balanceCache.forget(change.key),
    );
    billing.watchLedgerWrites(app.orm, (userId) => balanceCache.forget(userId));
    // Room lists likewise: triggers on rooms, zones and images, this process's ORM writes at their commit, and the
    // room states it stores itself.
    sessionEvents.subscribeTable(ROOM_LIST_CHANGED_CHANNEL, (change) =>
      'missed' in change ? roomListCache.clear() : roomListCache.changed(change.key),
    );
    watchRoomListWrites(app.orm, roomListCache);
    // A disabled account's rooms stop wherever it was disabled: by an administrator here, or by the operator CLI
    // or another server, whose word arrives as the end of the user's sessions.
    sessionEvents.subscribe((end) => {
      if ('userId' in end) void stopRoomsIfDisabled(app, rooms, end.userId);
    });

    // Counted in Redis when several processes serve (REDIS_URL), else in this process.
    const redisLimiter = config.redisUrl ? createRedisRateLimiter(config.redisUrl) : null;
    if (redisLimiter) app.addHook('onClose', async () => redisLimiter.close());
    const rateLimiter = redisLimiter ?? createMemoryRateLimiter();
    app.log.info({ store: config.redisUrl ? 'redis' : 'memory' }, 'rate limits');

    const passwords = createArgon2Hasher();
    const secretBox = createSecretBox(config.appSecret, 'share-password');
    // The room socket's ticket checks share passwords with the rate limiter alone; it hashes with this one.
    setSharePasswordHasher(passwords);
    const hashed = await hashPlainSharePasswords(app.orm, { passwords, secretBox });
    if (hashed > 0) app.log.info({ rooms: hashed }, 'hashed share passwords kept in plain text');

    const payments = createPayments(config.payments, { publicUrl: config.publicUrl });
    app.decorate('payments', payments);
    const now = () => new Date();
    // Closed before the engine (hooks run last-in first-out), so no job stops rooms while the server shuts down.
    const billingJobs = await startBillingJobs({
      orm: app.orm,
      rooms,
      now,
      log: app.log,
      queue: config.billingJobs,
    });
    app.addHook('onClose', async () => billingJobs.close());
    app.decorate('billingJobs', billingJobs);

    app.decorate('services', {
      config: {
        publicUrl: config.publicUrl,
        shareUrl: config.shareUrl,
        fixed: config.fixedUrls,
        siteName: 'Cloud-browser rooms',
      },
      mailer,
      captcha: captcha.verifier,
      selfHostedCaptcha: captcha.selfHosted,
      passwords,
      secretBox,
      rateLimiter,
      now,
      rooms,
      node,
      ownAgents: () => agent.ids(),
      sessionEvents,
      sessionCache,
      balanceCache,
      roomListCache,
      payments: payments.gateway,
      // The relay (registered after this plugin) knows who is connected; asked at call time.
      presence: {
        memberCount: (roomId) => (app.hasDecorator('roomRelay') ? app.roomRelay.memberCount(roomId) : 0),
      },
    } satisfies TServices);
  },
  { name: 'services', dependencies: ['database'] },
);

async function resumeInterruptedRooms(
  app: FastifyInstance,
  rooms: RoomEngine,
  roomIds: readonly string[],
): Promise<void> {
  for (const roomId of roomIds) {
    try {
      const running = await resumeRoom(
        { em: app.orm.em.fork(), services: { rooms, now: () => new Date() } },
        roomId,
      );
      app.log.info({ roomId, running }, 'room resumed after the server restarted');
    } catch (error) {
      app.log.warn({ err: error, roomId }, 'could not resume a room after the server restarted');
    }
  }
}

/**
 * The shape of the room started last, with its owner's plan applied as its start would apply it; with no room
 * started yet, a new room's on the default plan (created rooms take the plan's limits).
 */
async function warmForLastRoom(app: FastifyInstance, rooms: ChromiumRoomEngine): Promise<void> {
  if (rooms.warmRuns().shape) return;
  try {
    const em = app.orm.em.fork();
    const room = await em.findOne(
      Room,
      { lastStartedAt: { $ne: null } },
      { orderBy: { lastStartedAt: 'desc' } },
    );
    if (room) {
      rooms.warmFor(effectiveSettings(room, await planOf(em, room.owner.id)));
      return;
    }
    const plan = await em.findOne(Plan, { isDefault: true }, { orderBy: { sortOrder: 'asc' } });
    if (!plan) return;
    rooms.warmFor({
      width: plan.maxWidth,
      height: plan.maxHeight,
      maxFrameRate: plan.maxFrameRate,
      videoBitrateKbps: plan.maxBitrateKbps,
    });
  } catch (error) {
    app.log.warn({ err: error }, 'could not tell the warm room pool what to start');
  }
}

async function stopRoomsIfDisabled(app: FastifyInstance, rooms: RoomEngine, userId: string): Promise<void> {
  try {
    const em = app.orm.em.fork();
    const user = await em.findOne(User, userId, { fields: ['disabled'] });
    if (user?.disabled) await admin.stopUserRooms({ em, rooms, now: new Date() }, userId);
  } catch (error) {
    app.log.warn({ err: error, userId }, 'could not stop the rooms of a disabled account');
  }
}
