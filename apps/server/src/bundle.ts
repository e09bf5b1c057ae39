// The server as it runs: one ES module, `dist/server.mjs`, holding the server's code and the workspace packages it
// uses, with every npm dependency left to Node. Node then resolves a few dozen packages instead of the workspaces'
// hundreds of TypeScript files through a loader hook: a process serves ~2 s sooner (import 4.2 s -> 1.9 s on this
// 2-core machine), which every start pays: `npm start`, each role's pod, each server process a test starts.
// `npm run build` writes it; the integration tests' global set-up writes it again, so a test never runs a stale one.
//
// The bundle sits one folder below apps/server, as src/ does, so paths the code derives from its own location
// (REPO_ROOT in paths.ts) are the same from either. The database package finds its migrations by its package name.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { SERVER_ROOT } from './paths';

export const SERVER_BUNDLE = join(SERVER_ROOT, 'dist/server.mjs');

/** Writes dist/server.mjs (and its source map) from src/server.ts. */
export async function bundleServer(): Promise<void> {
  await rm(join(SERVER_ROOT, 'dist'), { recursive: true, force: true });
  await build({
    entryPoints: [join(SERVER_ROOT, 'src/server.ts')],
    outfile: SERVER_BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    sourcemap: 'linked',
    // Class and function names as written: the ORM and the logs name things by them.
    keepNames: true,
    logLevel: 'warning',
    plugins: [
      {
        name: 'npm-packages-external',
        setup(bundler) {
          // Bare specifiers are npm packages (Node loads them from node_modules), except our workspaces.
          bundler.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@rooms/') ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundleServer();
