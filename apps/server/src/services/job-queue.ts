// The install's job queue: pg-boss, kept in the same PostgreSQL database. Work that must happen once for the whole
// install, however many control-plane processes run, goes through it (billing's scheduled jobs, the fleet's
// restarts of lost rooms): one worker takes each job (SKIP LOCKED), and a job that fails is retried by the queue.
import type { MikroORM } from '@mikro-orm/postgresql';
import type { FastifyBaseLogger } from 'fastify';
import { PgBoss } from 'pg-boss';

export type TJobQueue = PgBoss;

export async function startJobQueue(orm: MikroORM, log: FastifyBaseLogger): Promise<TJobQueue> {
  const boss = new PgBoss({
    connectionString: orm.config.get('clientUrl'),
    max: 3,
    application_name: 'rooms-jobs',
    openTelemetry: { enabled: false },
  } as ConstructorParameters<typeof PgBoss>[0]);
  boss.on('error', (error) => log.error({ err: error }, 'job queue error'));
  await boss.start();
  return boss;
}
