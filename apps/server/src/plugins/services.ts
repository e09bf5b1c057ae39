// Builds the long-lived services the procedures use (mail, captcha, passwords, throttling, the room engine) and
// hands them to the request contexts.
import type { Mailer, TServices } from '@rooms/api';
import fp from 'fastify-plugin';
import type { TConfig } from '../env';
import { startEgressProxy } from '../rooms/egress/egress-proxy';
import { ChromiumRoomEngine } from '../rooms/engine/chromium-room-engine';
import { startRoomStateSync } from '../rooms/room-state-sync';
import { createCaptcha } from '../services/captcha/create-captcha';
import { createPostgresOnceStore } from '../services/captcha-once-store';
import { createOutboxMailer } from '../services/mail/outbox-mailer';
import { createSmtpMailer } from '../services/mail/smtp-mailer';
import { startNodeMonitor } from '../services/node-monitor/node-monitor';
import { createArgon2Hasher } from '../services/passwords/argon2-hasher';
import { createMemoryRateLimiter } from '../services/rate-limit/memory-rate-limiter';

declare module 'fastify' {
  interface FastifyInstance {
    services: TServices;
    /** The same engine as services.rooms, with what the WebSocket relay needs (sessions, participant counts). */
    roomEngine: ChromiumRoomEngine;
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
      media: config.rooms.media,
      egress: {
        start: ({ allow }) => startEgressProxy({ allow, logger: app.log }),
        allow: config.rooms.egressAllow,
      },
      logger: app.log,
    });
    // Registered before the engine's own close hook so it runs after it (onClose hooks run last-in first-out):
    // the rooms stopped at shutdown are stored as stopped.
    const roomStates = await startRoomStateSync({ orm: app.orm, engine: rooms, logger: app.log });
    app.addHook('onClose', async () => roomStates.close());
    // No browser may outlive the server: every room stops (and keep-data profiles flush) before exit.
    app.addHook('onClose', async () => rooms.close());
    app.decorate('roomEngine', rooms);
    const node = startNodeMonitor({ engine: rooms });
    app.addHook('onClose', async () => node.close());

    app.decorate('services', {
      config: { publicUrl: config.publicUrl, shareUrl: config.shareUrl, siteName: 'Cloud-browser rooms' },
      mailer,
      captcha: captcha.verifier,
      selfHostedCaptcha: captcha.selfHosted,
      passwords: createArgon2Hasher(),
      rateLimiter: createMemoryRateLimiter(),
      now: () => new Date(),
      rooms,
      node,
      // The relay (registered after this plugin) knows who is connected; asked at call time.
      presence: {
        memberCount: (roomId) => (app.hasDecorator('roomRelay') ? app.roomRelay.memberCount(roomId) : 0),
      },
    } satisfies TServices);
  },
  { name: 'services', dependencies: ['database'] },
);
