// Builds the long-lived services the procedures use (mail, captcha, passwords, throttling, the room engine) and
// hands them to the request contexts. Every role builds the shared ones; a process that runs rooms (ROOM_ROLE all
// or agent) adds its room agent, one that controls the fleet (all or control) the control plane's duties, and a
// gateway nothing more. Each part is a small function below; the plugin composes them by role.

import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import {
  admin,
  billing,
  type Mailer,
  type NodeMonitor,
  type RoomEngine,
  RoomListCache,
  type RoomPresence,
  SessionCache,
  setSharePasswordHasher,
  type TServices,
  watchAccountChanges,
  watchRoomListWrites,
} from '@rooms/api';
import { BALANCE_CHANGED_CHANNEL, ROOM_LIST_CHANGED_CHANNEL, User } from '@rooms/db';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { TConfig } from '../env';
import { registerAgentReports } from '../fleet/agent-reports';
import { agonesAllocator } from '../fleet/agones/agones-placement';
import { AgonesRuntime } from '../fleet/agones/agones-runtime';
import { NOTICES_PATH } from '../fleet/control-routes';
import { createFleetAuth, type TFleetAuth } from '../fleet/fleet-auth';
import { CONTROL_AUDIENCE } from '../fleet/fleet-credentials';
import { startFleetDuties, type TFleetDuties } from '../fleet/fleet-duties';
import { startFleetPresence } from '../fleet/fleet-presence';
import { FleetRoomEngine, type TLocalRooms } from '../fleet/fleet-room-engine';
import { HeartbeatBatcher } from '../fleet/heartbeat-batcher';
import { startRoomAgent } from '../fleet/room-agent';
import { createProfileStore } from '../rooms/profiles/create-profile-store';
import { type BillingJobs, startBillingJobs } from '../services/billing-jobs/billing-jobs';
import { createCaptcha } from '../services/captcha/create-captcha';
import { startJobQueue, type TJobQueue } from '../services/job-queue';
import { createOutboxMailer } from '../services/mail/outbox-mailer';
import { createSmtpMailer } from '../services/mail/smtp-mailer';
import { startNodeMonitor } from '../services/node-monitor/node-monitor';
import { createPostgresOnceStore } from '../services/once-store';
import { createArgon2Hasher } from '../services/passwords/argon2-hasher';
import { hashPlainSharePasswords } from '../services/passwords/plain-share-passwords';
import { createPayments, type TPaymentServices } from '../services/payments/create-gateway';
import { createMemoryRateLimiter } from '../services/rate-limit/memory-rate-limiter';
import { createRedisRateLimiter } from '../services/rate-limit/redis-rate-limiter';
import { createSecretBox } from '../services/secret-box/secret-box';
import { databaseNotices, relayedNotices } from '../services/session-events/notice-sources';
import {
  SESSION_EVENT_CHANNELS,
  startSessionEvents,
  type TSessionEventBus,
} from '../services/session-events/session-events';

declare module 'fastify' {
  interface FastifyInstance {
    services: TServices;
    /** The same bus as services.sessionEvents, with the subscription the WebSocket relay listens on. */
    sessionEvents: TSessionEventBus;
    /** The same gateway as services.payments, with the providers whose notifications plugins/payments.ts takes. */
    payments: TPaymentServices;
    /** Bill expiry, renewals and room-time metering on the PostgreSQL job queue. */
    billingJobs: BillingJobs;
    /** Agents' heartbeats, written in batches: the control plane's, and an agent's own without CONTROL_URL. */
    fleetHeartbeats: HeartbeatBatcher;
    /** The control plane's sweep and restarts of lost rooms; absent where no fleet is controlled (agents, gateways). */
    fleetDuties?: TFleetDuties;
  }
}

export const servicesPlugin = fp(
  async (app, options: { config: TConfig }) => {
    const { config } = options;
    const runsRooms = config.role === 'all' || config.role === 'agent';
    const controlsFleet = config.role === 'all' || config.role === 'control';

    const accounts = await startAccountServices(app, config);
    const { fleetAuth, sessionEvents } = startFleetLink(app, config);
    const roomListCache = new RoomListCache();
    app.decorate('fleetHeartbeats', new HeartbeatBatcher(app.orm));
    // The rooms this process runs itself, as a room agent of the fleet.
    const local = runsRooms ? await startRoomAgent(app, config, roomListCache) : undefined;
    const { rooms, node } = await startFleetRooms(app, config, { fleetAuth, sessionEvents, local });
    const ownAgents = () => local?.agentIds() ?? new Set<string>();
    // The relay (registered after this plugin) knows who is connected here and who knocks; asked at call time.
    const here: RoomPresence = {
      memberCount: (roomId) => (app.hasDecorator('roomRelay') ? app.roomRelay.memberCount(roomId) : 0),
      knocks: (roomId) => (app.hasDecorator('roomRelay') ? app.roomRelay.knocks(roomId) : []),
    };
    const control = controlsFleet
      ? await startControlPlane(app, { rooms, fleetAuth, here, ownAgents })
      : // An agent or a gateway knows its own members.
        { jobs: null, presence: here };
    const caches = watchCaches(app, { sessionEvents, rooms, roomListCache });
    const { payments, now } = await startBilling(app, config, { rooms, jobs: control.jobs });

    app.decorate('services', {
      config: {
        publicUrl: config.publicUrl,
        shareUrl: config.shareUrl,
        fixed: config.fixedUrls,
        siteName: 'Cloud-browser rooms',
        supportEmail: config.supportEmail ?? null,
      },
      ...accounts,
      now,
      rooms,
      node,
      ownAgents,
      sessionEvents,
      ...caches,
      roomListCache,
      payments: payments.gateway,
      presence: control.presence,
    } satisfies TServices);
  },
  { name: 'services', dependencies: ['database'] },
);

/**
 * Every role: the services of accounts, which the API's procedures and the room socket's ticket use — mail, the
 * captcha, passwords and the share passwords' box, and the rate limiter.
 */
async function startAccountServices(app: FastifyInstance, config: TConfig) {
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
      maxNumber: config.captcha.maxNumber,
      secret: config.appSecret,
      geetestId: config.captcha.geetestId,
      geetestKey: config.captcha.geetestKey,
      geetestApiServer: config.captcha.geetestApiServer,
    },
    createPostgresOnceStore(app.orm),
  );

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

  return {
    mailer,
    captcha: captcha.verifier,
    selfHostedCaptcha: captcha.selfHosted,
    passwords,
    secretBox,
    rateLimiter,
  };
}

/**
 * Every role: how this process signs and checks the fleet's calls, and how it hears the database's notices — from
 * the control plane's relay on an agent or a gateway of a fleet (CONTROL_URL), from the database itself otherwise.
 */
function startFleetLink(app: FastifyInstance, config: TConfig) {
  const fleetAuth = createFleetAuth(config, app.log);
  app.addHook('onClose', async () => fleetAuth.close());
  app.decorate('fleetAuth', fleetAuth);

  const relayed = config.controlUrl && (config.role === 'agent' || config.role === 'gateway');
  const noticesCaller = relayed ? fleetAuth.caller : undefined;
  const sessionEvents = startSessionEvents(
    app.orm,
    app.log,
    config.controlUrl && noticesCaller
      ? relayedNotices(
          new URL(NOTICES_PATH, config.controlUrl).href,
          () => noticesCaller.authorization(CONTROL_AUDIENCE, 'GET', NOTICES_PATH),
          app.log,
        )
      : databaseNotices(
          app.orm.config.get('clientUrl'),
          SESSION_EVENT_CHANNELS,
          app.log,
          `rooms-${config.role}-notices`,
        ),
  );
  app.addHook('onClose', async () => sessionEvents.close());
  app.decorate('sessionEvents', sessionEvents);
  return { fleetAuth, sessionEvents };
}

/**
 * Every role: rooms are started and stopped through the fleet, placed on a live agent of their zone, this one
 * (`local`) or another; and the node monitor the server state reports.
 */
async function startFleetRooms(
  app: FastifyInstance,
  config: TConfig,
  parts: {
    fleetAuth: TFleetAuth;
    sessionEvents: TSessionEventBus;
    local: (TLocalRooms & { node: NodeMonitor }) | undefined;
  },
): Promise<{ rooms: FleetRoomEngine; node: NodeMonitor }> {
  const { fleetAuth, local } = parts;
  // A control plane without an agent deletes a deleted room's saved profile itself (object storage only).
  const profiles = !local && config.rooms.profiles.s3 ? controlPlaneProfiles(app, config) : undefined;
  const rooms = new FleetRoomEngine({
    profiles,
    allocate:
      config.runtime.kind === 'agones' ? agonesAllocator(app.orm, agonesRuntime(config.runtime)) : undefined,
    orm: app.orm,
    // Only a control plane signs orders; on an agent or a gateway the engine orders no other agent.
    caller: fleetAuth.authority ? fleetAuth.caller : undefined,
    log: app.log,
    local,
  });
  await rooms.watch(parts.sessionEvents);
  app.addHook('onClose', async () => rooms.close());
  if (local) return { rooms, node: local.node };
  const node = startNodeMonitor({ engine: rooms });
  app.addHook('onClose', async () => node.close());
  return { rooms, node };
}

/**
 * ROOM_ROLE all or control: the install's job queue, the sweep and restarts of lost rooms, the agents' reports,
 * and every agent's member counts.
 */
async function startControlPlane(
  app: FastifyInstance,
  parts: {
    rooms: FleetRoomEngine;
    fleetAuth: TFleetAuth;
    here: RoomPresence;
    ownAgents: () => ReadonlySet<string>;
  },
): Promise<{ jobs: TJobQueue; presence: RoomPresence }> {
  // Closed last (hooks run last-in first-out), after its workers.
  const jobs = await startJobQueue(app.orm, app.log);
  app.addHook('onClose', async () => jobs.stop({ graceful: true, timeout: 10_000 }));
  const duties = await startFleetDuties({ orm: app.orm, rooms: parts.rooms, jobs, log: app.log });
  app.addHook('onClose', async () => duties.close());
  app.decorate('fleetDuties', duties);
  registerAgentReports(app, {
    orm: app.orm,
    auth: parts.fleetAuth,
    log: app.log,
    restartLost: duties.restartLost,
  });
  // Only the processes that answer the API read every agent's member counts (every 3 s); an agent or a gateway
  // knows its own, and a thousand of them reading a thousand reports each would be PostgreSQL's busiest query.
  const presence = startFleetPresence({
    orm: app.orm,
    local: parts.here,
    ownAgents: parts.ownAgents,
    log: app.log,
  });
  app.addHook('onClose', async () => presence.close());
  return { jobs, presence };
}

/**
 * Every role: the caches of signed-in sessions, balances and room lists, each emptied of what changed, whoever
 * changed it; and a disabled account's rooms stopped wherever it was disabled.
 */
function watchCaches(
  app: FastifyInstance,
  parts: { sessionEvents: TSessionEventBus; rooms: RoomEngine; roomListCache: RoomListCache },
) {
  const { sessionEvents, roomListCache } = parts;
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
    if ('userId' in end) void stopRoomsIfDisabled(app, parts.rooms, end.userId);
  });
  return { sessionCache, balanceCache };
}

/**
 * Every role: the payment gateway, and the scheduled billing work, which runs on the control plane's job queue
 * (once per install: agents and gateways leave it alone).
 */
async function startBilling(
  app: FastifyInstance,
  config: TConfig,
  parts: { rooms: RoomEngine; jobs: TJobQueue | null },
) {
  const payments = createPayments(config.payments, { publicUrl: config.publicUrl });
  app.decorate('payments', payments);
  const now = () => new Date();
  // Closed before the engine (hooks run last-in first-out), so no job stops rooms while the server shuts down.
  const billingJobs = await startBillingJobs({
    orm: app.orm,
    rooms: parts.rooms,
    now,
    log: app.log,
    queue: config.billingJobs ? parts.jobs : null,
  });
  app.addHook('onClose', async () => billingJobs.close());
  app.decorate('billingJobs', billingJobs);
  return { payments, now };
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

/** The Agones Fleet of room agents, through the Kubernetes API with the pod's own service account. */
function agonesRuntime(runtime: { fleet: string; namespace: string }): AgonesRuntime {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromCluster();
  return new AgonesRuntime({ kubeConfig, namespace: runtime.namespace, fleet: runtime.fleet });
}

/** The kept profiles' store as the control plane uses it: to delete a deleted room's saved profile. */
function controlPlaneProfiles(
  app: FastifyInstance,
  config: TConfig,
): { delete(roomId: string): Promise<void> } {
  const store = createProfileStore(config.rooms.profiles, { orm: app.orm, logger: app.log });
  app.addHook('onClose', async () => store.close());
  // The store also clears the local copy: this process has none, so a directory of its own that never exists.
  return { delete: (roomId) => store.delete(roomId, join(config.rooms.dataDir, roomId, 'profile')) };
}
