// The database: the configured PostgreSQL, or an embedded one in the data directory when DATABASE_URL is unset.
// Migrations and reference data are applied before the server accepts requests.
import { join } from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import { initOrm, migrateAndSeed, startEmbeddedPostgres } from '@rooms/db';
import fp from 'fastify-plugin';
import type { TConfig } from '../env';

declare module 'fastify' {
  interface FastifyInstance {
    orm: MikroORM;
  }
}

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
      });
      clientUrl = embedded.url;
      stopEmbedded = embedded.stop;
    }

    let orm: MikroORM;
    try {
      orm = await initOrm({ clientUrl });
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
