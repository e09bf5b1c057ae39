// The database package's integration tests on their own (`npx vitest run --config packages/db/vitest.config.ts`);
// the repository's root config runs the same files in its `integration` project.
import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

export default defineProject({
  // Paths below are relative to this package, whichever directory Vitest is started from.
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: {
    name: 'db-integration',
    include: ['src/**/*.integration.test.ts'],
    globalSetup: ['./src/testing/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
