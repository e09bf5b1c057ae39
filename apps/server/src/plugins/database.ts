// The database: the configured PostgreSQL, or an embedded one in the data directory when DATABASE_URL is unset.
// Migrations and reference data are applied before the server accepts requests.
import { join } from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import { initOrm, migrateAndSeed, startEmbeddedPostgres } from '@rooms/db';
import fp from 'fastify-plugin';
import type { TConfig } from '../env';
import { logEmbeddedPostgresEvent } from './database-supervision';

declare module 'fastify' {
  interface FastifyInstance {
    orm: MikroORM;
  }
}

/** How long an agent's or a gateway's idle connection stays open: a burst of writes reuses it. */
const IDLE_CONNECTION_MS = 5000;

export const databasePlugin = fp(
  async (app, options: { config: TConfig }) => {
    const { config } = options;
    let clientUrl = config.databaseUrl;
    let stopEmbedded: (() => Promise<void>) | undefined;

    if (!clientUrl) {
      const dataDir = join(config.dataDir, 'postgres');
      app.log.info(
        { dataDir, port: config.embeddedPgPort },
        'starting the embedded PostgreSQL (DATABASE_URL unset)',
      );
      const embedded = await startEmbeddedPostgres({
        dataDir,
        port: config.embeddedPgPort,
        logger: (line) => app.log.debug({ postgres: line }),
        // It is this process's child: when it dies, it is started again (PostgreSQL recovers from its WAL) and the
        // pools reconnect, instead of every request answering 503 until someone restarts the server.
        supervise: { onEvent: (event) => logEmbeddedPostgresEvent(app.log, event) },
      });
      clientUrl = embedded.url;
      stopEmbedded = embedded.stop;
    }

    let orm: MikroORM;
    try {
      orm = await initOrm({
        clientUrl,
        applicationName: `rooms-${config.role}`,
        // An agent or a gateway of a fleet talks to the database now and then (a run's state, a ticket spent): its
        // connections close when idle, so a thousand of them hold none between their writes.
        ...(config.controlUrl && (config.role === 'agent' || config.role === 'gateway')
          ? { pool: { min: 0, max: 4, idleTimeoutMillis: IDLE_CONNECTION_MS } }
          : {}),
      });
      // The control plane owns the schema: agents and gateways of the same install use it as the control plane
      // left it, and never race it to migrate.
      if (options.config.role === 'all' || options.config.role === 'control') await migrateAndSeed(orm);
    } catch (error) {
      await stopEmbedded?.();
      throw error;
    }
    app.decorate('orm', orm);

    // No entity manager forked per request in an onRequest hook (the MikroORM guide's pattern): a request's context
    // forks one when its procedure first needs it (context.ts), and everything else forks its own explicitly.
    app.addHook('onClose', async () => {
      await orm.close();
      await stopEmbedded?.();
    });
  },
  { name: 'database' },
);
