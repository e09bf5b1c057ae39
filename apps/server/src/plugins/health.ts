// /healthz: the process answers. /readyz: the database answers too.
import fp from 'fastify-plugin';

export const healthPlugin = fp(
  async (app) => {
    app.get('/healthz', async () => ({ status: 'ok' }));
    app.get('/readyz', async (_request, reply) => {
      try {
        await app.orm.em.fork().getConnection().execute('select 1');
        return { status: 'ok' };
      } catch (error) {
        app.log.warn({ err: error }, 'readiness check failed');
        return reply.code(503).send({ status: 'unavailable', reason: 'database unreachable' });
      }
    });
  },
  { name: 'health', dependencies: ['database'] },
);
