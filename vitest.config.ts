// One Vitest run, four projects: fast unit tests, integration tests against real PostgreSQL/SMTP/sockets, the
// security suite, and browser journeys in real Chromium against the built app served by the real server.
import { defineConfig } from 'vitest/config';

const ignored = ['**/node_modules/**', '**/dist/**', '**/.data/**'];
/**
 * expect.poll waits 1 s by default: too little for anything that goes through a server, a room or a picture on a
 * busy machine. A poll that needs longer or shorter says so itself.
 */
const POLL = { timeout: 10_000 };
/**
 * Test files of a worker share its modules instead of importing the server's graph again for each file: ~2.5 s a
 * file, about 190 s of the first run on this 2-core machine (977 s -> 783 s) and ~30 s of the journeys. Files clean
 * up what they set (environment variables, servers, rooms) in their afterAll.
 */
const SHARED_MODULES = { isolate: false };
/** The run's migrated, seeded database that each test database copies. */
const DATABASE_TEMPLATE = 'packages/db/src/testing/global-setup.ts';
/** The server bundle (`dist/server.mjs`) the server processes tests start run, written from this checkout. */
const SERVER_BUNDLE = 'apps/server/src/testing/global-setup.ts';
/**
 * Integration suites that start no room, no Chromium and no server process (nor run the server bundle): two of them
 * at a time (each has its own database and random ports), while the rest keep the machine to themselves, one file at
 * a time, since a Chromium start or a picture under a deadline is what a neighbour slows down. A new suite runs one
 * at a time until it is listed here.
 */
const INTEGRATION_WITHOUT_ROOMS = [
  'apps/server/src/accounts/*.integration.test.ts',
  'apps/server/src/admin/admin-moderation.integration.test.ts',
  'apps/server/src/admin/admin-reasons.integration.test.ts',
  'apps/server/src/app.integration.test.ts',
  'apps/server/src/billing/bill-lifecycle.integration.test.ts',
  'apps/server/src/billing/pay-api.integration.test.ts',
  'apps/server/src/billing/plan-changes.integration.test.ts',
  'apps/server/src/billing/providers.integration.test.ts',
  'apps/server/src/deployment/reverse-proxy.integration.test.ts',
  'apps/server/src/fleet/agones/agones-runtime.integration.test.ts',
  'apps/server/src/fleet/agones/agones-sdk.integration.test.ts',
  'apps/server/src/fleet/control-path.integration.test.ts',
  'apps/server/src/fleet/gateway.integration.test.ts',
  'apps/server/src/fleet/local-agent.integration.test.ts',
  'apps/server/src/fuzz/*.integration.test.ts',
  'apps/server/src/plugins/dev-mailbox.integration.test.ts',
  'apps/server/src/plugins/trpc.integration.test.ts',
  'apps/server/src/plugins/unused-connections.integration.test.ts',
  'apps/server/src/rooms/hub/room-chat.integration.test.ts',
  'apps/server/src/rooms/profiles/profile-archive.integration.test.ts',
  'apps/server/src/rooms/profiles/room-volumes.integration.test.ts',
  'apps/server/src/rooms/room-list-cache.integration.test.ts',
  'apps/server/src/services/captcha/geetest-captcha.integration.test.ts',
  'apps/server/src/services/rate-limit/redis-rate-limiter.integration.test.ts',
  'apps/server/src/ws/room-socket.integration.test.ts',
  'apps/server/src/ws/ticket-budgets.integration.test.ts',
  'packages/*/src/**/*.integration.test.ts',
];
/** Security suites that start no room: two at a time as well. */
const SECURITY_WITHOUT_ROOMS = [
  'apps/server/src/accounts/lockout.security.test.ts',
  'apps/server/src/admin/admin-authorization.security.test.ts',
  'apps/server/src/fleet/agent-reports.security.test.ts',
  'apps/server/src/fleet/fleet-downloads.security.test.ts',
  'apps/server/src/fleet/fleet-roles.security.test.ts',
  'apps/server/src/http-hardening.security.test.ts',
  'apps/server/src/plugins/dev-mailbox.security.test.ts',
  'apps/server/src/rooms/egress/egress-policy.security.test.ts',
  'apps/server/src/rooms/egress/egress-proxy.security.test.ts',
  'apps/server/src/rooms/hub/pointing/pointing.security.test.ts',
  'apps/server/src/rooms/hub/voice/voice.security.test.ts',
  'apps/server/src/sharing/share-passwords.security.test.ts',
  'apps/server/src/ws/room-socket.security.test.ts',
  'packages/*/src/**/*.security.test.ts',
];
/** Browser journeys through pages alone, no room: two at a time too, before the room journeys. */
const JOURNEYS_WITHOUT_ROOMS = ['apps/web/e2e/{accessibility,account,admin,billing,layout}.spec.ts'];
/**
 * Suites with rooms that measure a stream against the clock (bitrate, a slow viewer's share of the pictures, quiet
 * sound packets, sound beside pictures): a neighbour's Chromium start takes the core their encoder needs, so they
 * run alone, after the rest.
 */
const ROOMS_MEASURED = [
  'apps/server/src/rooms/media/room-media.integration.test.ts',
  'apps/server/src/rooms/media/headful-room.integration.test.ts',
  'apps/server/src/rooms/hub/viewer-stream.integration.test.ts',
];
/**
 * Vitest runs projects of one `groupOrder` side by side under one worker limit, and the groups one after another:
 * the unit tests and the integration and security suites without rooms on both cores first; then the suites with
 * rooms two at a time (a room suite leaves more than half the machine idle, waiting on rooms, sockets and
 * processes: 397 s at 43 % busy one at a time); then the measured room suites one at a time.
 */
const TWO_WORKERS = { maxWorkers: 2, sequence: { groupOrder: 0 } };
const ROOMS_TWO_AT_A_TIME = { maxWorkers: 2, sequence: { groupOrder: 1 } };
const ALONE = { maxWorkers: 1, sequence: { groupOrder: 2 } };

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          ...SHARED_MODULES,
          ...TWO_WORKERS,
          include: ['{apps,packages}/*/src/**/*.test.{ts,tsx}'],
          exclude: [...ignored, '**/*.integration.test.ts', '**/*.security.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          ...SHARED_MODULES,
          ...TWO_WORKERS,
          include: INTEGRATION_WITHOUT_ROOMS,
          exclude: ignored,
          globalSetup: [DATABASE_TEMPLATE],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          expect: { poll: POLL },
        },
      },
      {
        test: {
          name: 'integration-rooms',
          ...SHARED_MODULES,
          ...ROOMS_TWO_AT_A_TIME,
          include: ['{apps,packages}/*/src/**/*.integration.test.ts'],
          exclude: [...ignored, ...INTEGRATION_WITHOUT_ROOMS, ...ROOMS_MEASURED],
          globalSetup: [DATABASE_TEMPLATE, SERVER_BUNDLE],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          expect: { poll: POLL },
        },
      },
      {
        test: {
          name: 'integration-measured',
          ...SHARED_MODULES,
          ...ALONE,
          include: ROOMS_MEASURED,
          exclude: ignored,
          globalSetup: [DATABASE_TEMPLATE, SERVER_BUNDLE],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          expect: { poll: POLL },
        },
      },
      {
        // One test per finding of the security review (a room runs a stranger's code): each failed before its fix.
        test: {
          name: 'security',
          ...SHARED_MODULES,
          ...TWO_WORKERS,
          include: SECURITY_WITHOUT_ROOMS,
          exclude: ignored,
          globalSetup: [DATABASE_TEMPLATE],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          expect: { poll: POLL },
        },
      },
      {
        test: {
          name: 'security-rooms',
          ...SHARED_MODULES,
          ...ROOMS_TWO_AT_A_TIME,
          include: ['{apps,packages}/*/src/**/*.security.test.ts'],
          exclude: [...ignored, ...SECURITY_WITHOUT_ROOMS],
          globalSetup: [DATABASE_TEMPLATE],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          expect: { poll: POLL },
        },
      },
      {
        test: {
          name: 'e2e-pages',
          ...SHARED_MODULES,
          include: JOURNEYS_WITHOUT_ROOMS,
          exclude: ignored,
          globalSetup: [DATABASE_TEMPLATE],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          expect: { poll: POLL },
          maxWorkers: 2,
          // After the others when one run takes every project.
          sequence: { groupOrder: 3 },
        },
      },
      {
        test: {
          name: 'e2e',
          ...SHARED_MODULES,
          include: ['apps/web/e2e/**/*.spec.ts'],
          exclude: [...ignored, ...JOURNEYS_WITHOUT_ROOMS],
          globalSetup: [DATABASE_TEMPLATE, SERVER_BUNDLE],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          expect: { poll: POLL },
          fileParallelism: false,
          sequence: { groupOrder: 4 },
        },
      },
    ],
  },
});
