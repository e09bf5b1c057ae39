// Builds the long-lived services the procedures use (mail, captcha, passwords, throttling, the room engine) and
// hands them to the request contexts.

import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import {
  admin,
  billing,
  type Mailer,
  type NodeMonitor,
  type RoomEngine,
  RoomListCache,
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
import { createFleetAuth } from '../fleet/fleet-auth';
import { CONTROL_AUDIENCE } from '../fleet/fleet-credentials';
import { startFleetDuties, type TFleetDuties } from '../fleet/fleet-duties';
import { startFleetPresence } from '../fleet/fleet-presence';
import { FleetRoomEngine } from '../fleet/fleet-room-engine';
import { HeartbeatBatcher } from '../fleet/heartbeat-batcher';
import { startRoomAgent } from '../fleet/room-agent';
import { createProfileStore } from '../rooms/profiles/create-profile-store';
import { type BillingJobs, startBillingJobs } from '../services/billing-jobs/billing-jobs';
import { createCaptcha } from '../services/captcha/create-captcha';
import { startJobQueue } from '../services/job-queue';
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

    // How this process signs and checks the fleet's calls, by its role.
    const fleetAuth = createFleetAuth(config, app.log);
    app.addHook('onClose', async () => fleetAuth.close());
    app.decorate('fleetAuth', fleetAuth);

    // Agents and gateways of a fleet hear the database's notices from the control plane, which listens for them.
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

    const roomListCache = new RoomListCache();
    app.decorate('fleetHeartbeats', new HeartbeatBatcher(app.orm));
    // The rooms this process runs itself, as a room agent of the fleet (ROOM_ROLE all or agent).
    const local =
      config.role === 'all' || config.role === 'agent'
        ? await startRoomAgent(app, config, roomListCache)
        : undefined;
    // Rooms are started and stopped through the fleet: placed on a live agent of their zone, this one or another.
    // A control plane without an agent deletes a deleted room's saved profile itself (object storage only).
    const profiles = !local && config.rooms.profiles.s3 ? controlPlaneProfiles(app, config) : undefined;
    const rooms = new FleetRoomEngine({
      profiles,
      allocate:
        config.runtime.kind === 'agones'
          ? agonesAllocator(app.orm, agonesRuntime(config.runtime))
          : undefined,
      orm: app.orm,
      // Only a control plane signs orders; on an agent or a gateway the engine orders no other agent.
      caller: fleetAuth.authority ? fleetAuth.caller : undefined,
      log: app.log,
      local,
    });
    await rooms.watch(sessionEvents);
    app.addHook('onClose', async () => rooms.close());
    let node: NodeMonitor;
    if (local) node = local.node;
    else {
      const own = startNodeMonitor({ engine: rooms });
      app.addHook('onClose', async () => own.close());
      node = own;
    }
    const controlsFleet = config.role === 'all' || config.role === 'control';
    // The install's job queue, on the control plane; closed last (hooks run last-in first-out), after its workers.
    const jobs = controlsFleet ? await startJobQueue(app.orm, app.log) : null;
    if (jobs) app.addHook('onClose', async () => jobs.stop({ graceful: true, timeout: 10_000 }));
    if (jobs) {
      const duties = await startFleetDuties({ orm: app.orm, rooms, jobs, log: app.log });
      app.addHook('onClose', async () => duties.close());
      app.decorate('fleetDuties', duties);
      const { restartLost } = duties;
      registerAgentReports(app, {
        orm: app.orm,
        auth: fleetAuth,
        log: app.log,
        restartLost,
      });
    }
    // The relay (registered after this plugin) knows who is connected here; asked at call time.
    const here = (roomId: string) => (app.hasDecorator('roomRelay') ? app.roomRelay.memberCount(roomId) : 0);
    // Only the processes that answer the API read every agent's member counts (every 3 s); an agent or a gateway
    // knows its own, and a thousand of them reading a thousand reports each would be PostgreSQL's busiest query.
    const presence = controlsFleet
      ? startFleetPresence({
          orm: app.orm,
          local: here,
          ownAgents: () => local?.agentIds() ?? new Set(),
          log: app.log,
        })
      : { memberCount: here, close() {} };
    app.addHook('onClose', async () => presence.close());
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
      // Once per install, on the control plane: agents and gateways leave it alone.
      queue: config.billingJobs ? jobs : null,
    });
    app.addHook('onClose', async () => billingJobs.close());
    app.decorate('billingJobs', billingJobs);

    app.decorate('services', {
      config: {
        publicUrl: config.publicUrl,
        shareUrl: config.shareUrl,
        fixed: config.fixedUrls,
        siteName: 'Cloud-browser rooms',
        supportEmail: config.supportEmail ?? null,
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
      ownAgents: () => local?.agentIds() ?? new Set(),
      sessionEvents,
      sessionCache,
      balanceCache,
      roomListCache,
      payments: payments.gateway,
      presence,
    } satisfies TServices);
  },
  { name: 'services', dependencies: ['database'] },
);

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
