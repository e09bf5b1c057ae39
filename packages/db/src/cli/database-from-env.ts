/**
 * The database the CLI scripts work on: `DATABASE_URL` when set, else the embedded PostgreSQL the server
 * uses (`DATA_DIR`, default `.data` at the repository root, and `EMBEDDED_PG_PORT`), started or shared.
 * The database package's one reader of process.env (biome.json allows it here, as in the server's env.ts).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultEmbeddedPostgresPort, startEmbeddedPostgres } from '../embedded-postgres';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

export interface CliDatabase {
  url: string;
  close(): Promise<void>;
}

export async function databaseFromEnv(): Promise<CliDatabase> {
  const { DATABASE_URL, DATA_DIR, EMBEDDED_PG_PORT } = process.env;
  if (DATABASE_URL) return { url: DATABASE_URL, close: async () => {} };
  const server = await startEmbeddedPostgres({
    dataDir: path.join(path.resolve(repoRoot, DATA_DIR ?? '.data'), 'postgres'),
    port: EMBEDDED_PG_PORT ? Number(EMBEDDED_PG_PORT) : defaultEmbeddedPostgresPort,
  });
  return { url: server.url, close: () => server.stop() };
}
