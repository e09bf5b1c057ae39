// Scheduled billing work on pg-boss, a job queue kept in this PostgreSQL database: each cron tick becomes one job
// however many server processes run, and one worker takes it (SKIP LOCKED), so bills expire, renewals run and
// rooms are metered once per minute for the whole install, not once per process.
import type { MikroORM } from '@mikro-orm/postgresql';
import { billing, type RoomEngine } from '@rooms/api';
import type { FastifyBaseLogger } from 'fastify';
import type { TJobQueue } from '../job-queue';

export const BILLING_JOBS = {
  expirePayments: 'billing-expire-payments',
  renewals: 'billing-renewals',
  metering: 'billing-metering',
} as const;
export type TBillingJob = (typeof BILLING_JOBS)[keyof typeof BILLING_JOBS];

const EVERY_MINUTE = '* * * * *';

export interface BillingJobs {
  /** Runs a job's work here and now, outside the queue (tests, the operator CLI). */
  runNow(job: TBillingJob): Promise<unknown>;
  /** Puts a job on the queue for whichever process takes it first. */
  enqueue(job: TBillingJob): Promise<void>;
  close(): Promise<void>;
}

export interface TBillingJobsOptions {
  orm: MikroORM;
  rooms: RoomEngine;
  now: () => Date;
  log: FastifyBaseLogger;
  /** Where the jobs are scheduled and worked (services/job-queue.ts); null: only runNow works. */
  queue: TJobQueue | null;
}

export async function startBillingJobs(options: TBillingJobsOptions): Promise<BillingJobs> {
  const { orm, rooms, now, log } = options;
  const work: Record<TBillingJob, () => Promise<unknown>> = {
    [BILLING_JOBS.expirePayments]: () => billing.runPaymentExpiry(deps()),
    [BILLING_JOBS.renewals]: () => billing.runRenewals(deps()),
    [BILLING_JOBS.metering]: () => billing.runMetering(deps()),
  };
  function deps(): billing.TJobDeps {
    return { em: orm.em.fork() as unknown as billing.TJobDeps['em'], rooms, now: now(), log };
  }

  const boss = options.queue;
  if (!boss) {
    return {
      runNow: (job) => work[job](),
      enqueue: async () => {
        throw new Error('the billing job queue is off in this process (BILLING_JOBS=off)');
      },
      close: async () => {},
    };
  }

  for (const name of Object.values(BILLING_JOBS)) {
    await boss.createQueue(name, { retryLimit: 2, expireInSeconds: 300 });
    await boss.schedule(name, EVERY_MINUTE);
    await boss.work(name, { pollingIntervalSeconds: 2 }, async () => {
      try {
        await work[name]();
      } catch (error) {
        log.error({ err: error, job: name }, 'billing job failed');
        throw error;
      }
    });
  }
  return {
    runNow: (job) => work[job](),
    enqueue: async (job) => {
      await boss.send(job, {});
    },
    // The queue itself is closed by its owner, after its other workers.
    close: async () => {
      for (const name of Object.values(BILLING_JOBS)) await boss.offWork(name);
    },
  };
}
