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

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          ...SHARED_MODULES,
          include: ['{apps,packages}/*/src/**/*.test.{ts,tsx}'],
          exclude: [...ignored, '**/*.integration.test.ts', '**/*.security.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          ...SHARED_MODULES,
          include: ['{apps,packages}/*/src/**/*.integration.test.ts'],
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
          include: ['{apps,packages}/*/src/**/*.security.test.ts'],
          exclude: ignored,
          globalSetup: [DATABASE_TEMPLATE],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          expect: { poll: POLL },
        },
      },
      {
        test: {
          name: 'e2e',
          ...SHARED_MODULES,
          include: ['apps/web/e2e/**/*.spec.ts'],
          exclude: ignored,
          globalSetup: [DATABASE_TEMPLATE, SERVER_BUNDLE],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          expect: { poll: POLL },
          fileParallelism: false,
        },
      },
    ],
  },
});
