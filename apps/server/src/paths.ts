// Where the checkout and this workspace are, derived from this module's own location: src/paths.ts, or
// dist/server.mjs (bundle.ts), both one folder below apps/server.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout: from src/paths.ts, or from dist/server.mjs (src/bundle.ts), both one folder below apps/server. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
/** This workspace, apps/server: its package.json, its sources (the sandbox's scripts) and its bundle. */
export const SERVER_ROOT = join(REPO_ROOT, 'apps/server');
