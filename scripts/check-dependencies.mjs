// The dependency rules between the workspaces (ARCHITECTURE.md), checked on every import of every source file:
// a workspace may import only the workspaces listed for it, the web app only the browser-safe entry points of the
// API package, and no file may reach into another workspace by a relative path. Tests and their kits (`*.test.*`,
// `*.spec.*`, `testing/`, the web app's journeys in `e2e/`) may also use the database package's test helpers, and
// the journeys, which run the real server, its test kit (`@rooms/server/testing`, never a path into the server's
// sources). Run by `npm run lint`; exits 1 with every breach listed.
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * What each workspace may import of the others: exact specifiers, or every subpath of one that ends in `/`.
 * A relative path into another workspace counts as that workspace's folder (e.g. `apps/server`).
 */
const RULES = {
  'packages/db': { may: [] },
  'packages/i18n': { may: [] },
  'packages/ui': { may: [] },
  'packages/api': { may: ['@rooms/db'] },
  'apps/server': { may: ['@rooms/api', '@rooms/api/captcha', '@rooms/api/room-protocol', '@rooms/db'] },
  // The browser gets the API's types and the modules written for it, never the server-side code behind them.
  'apps/web': {
    may: [
      '@rooms/api/client',
      '@rooms/api/captcha',
      '@rooms/api/room-protocol',
      '@rooms/ui/',
      '@rooms/i18n',
      // The source language's catalogue, bundled with the app so a page opens even when no catalogue loads.
      '@rooms/i18n/default-messages',
      '@rooms/i18n/lingui.config',
    ],
  },
};
/** What tests may use besides: the database's test helpers; the journeys, the database and the server's test kit. */
const TEST_MAY = ['@rooms/db/testing'];
const JOURNEY_MAY = ['@rooms/db', '@rooms/server/testing'];

const SOURCE = /\.(?:ts|tsx|mts|mjs|js)$/;
const SKIP = new Set(['node_modules', 'dist', '.turbo']);
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;

async function* sources(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name) || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) yield path;
  }
}

const allows = (allowed, specifier) =>
  allowed.some((rule) => (rule.endsWith('/') ? specifier.startsWith(rule) : specifier === rule));

/** The workspace a path inside the repo belongs to, or undefined outside them. */
const workspaceOf = (path) => Object.keys(RULES).find((workspace) => path.startsWith(`${workspace}/`));

const breaches = [];
let checked = 0;
for (const [workspace, rule] of Object.entries(RULES)) {
  for await (const file of sources(join(root, workspace))) {
    const path = relative(root, file).split(sep).join('/');
    const inWorkspace = path.slice(workspace.length + 1);
    const journey = workspace === 'apps/web' && inWorkspace.startsWith('e2e/');
    const test = journey || /\.(?:test|spec)\.[^/]+$|(?:^|\/)testing(?:\/|\.)/.test(inWorkspace);
    const lines = (await readFile(file, 'utf8')).split('\n');
    lines.forEach((line, index) => {
      for (const [, specifier] of line.matchAll(IMPORT)) {
        checked += 1;
        let target;
        if (specifier.startsWith('@rooms/')) target = specifier;
        else if (specifier.startsWith('.')) {
          const into = relative(root, resolve(dirname(file), specifier))
            .split(sep)
            .join('/');
          if (workspaceOf(`${into}/`) === workspace) continue;
          target = into;
        } else continue;
        if (allows(rule.may, target)) continue;
        if (test && allows(TEST_MAY, target)) continue;
        if (journey && allows(JOURNEY_MAY, target)) continue;
        breaches.push(`${path}:${index + 1}: ${workspace} may not import ${specifier}`);
      }
    });
  }
}

if (breaches.length > 0) {
  console.error(`Dependency rules broken (see ARCHITECTURE.md):\n${breaches.join('\n')}`);
  process.exit(1);
}
console.log(`dependency rules hold (${checked} imports checked)`);
