// Prometheus metrics for operators at GET /metrics (prom-client). A scrape needs `Authorization: Bearer
// <METRICS_TOKEN>`; without a configured token nobody may scrape: "this machine" cannot be told from a visitor
// behind a same-host proxy that adds no X-Forwarded-For. Anyone refused gets the answer of a missing path. Request latency is observed as requests end; everything else is read at scrape time from its
// source (the room engine, the database), so nothing is counted twice and nothing drifts.
import { timingSafeEqual } from 'node:crypto';
import { appRouter } from '@rooms/api';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { TConfig } from '../env';

const ROOM_STATES = ['starting', 'running', 'stopping', 'crashed'] as const;
const MEDIA_PATHS = ['h264', 'screencast'] as const;
const PROCEDURES = new Set(Object.keys(appRouter._def.procedures));

/** The route a request matched, with a bounded set of values: tRPC calls by procedure, unknown paths as one. */
function routeOf(request: FastifyRequest): string {
  const pattern = request.routeOptions.url;
  if (!pattern) return 'unmatched';
  if (pattern.startsWith('/trpc/')) {
    const path = (request.params as { path?: string } | undefined)?.path ?? '';
    if (path.includes(',')) return '/trpc/(batch)';
    return PROCEDURES.has(path) ? `/trpc/${path}` : '/trpc/(unknown)';
  }
  return pattern;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function mayScrape(request: FastifyRequest, token: string | undefined): boolean {
  if (!token) return false;
  const header = request.headers.authorization ?? '';
  const given = header.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : '';
  return given !== '' && sameSecret(given, token);
}

export const metricsPlugin = fp(
  async (app, options: { config: TConfig }) => {
    // One registry per app: tests run several apps in one process.
    const registry = new Registry();
    collectDefaultMetrics({ register: registry, prefix: 'rooms_' });

    const httpDuration = new Histogram({
      name: 'rooms_http_request_duration_seconds',
      help: 'HTTP request duration by route, method and status code',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    });
    app.addHook('onResponse', async (request, reply) => {
      httpDuration.observe(
        { method: request.method, route: routeOf(request), status: String(reply.statusCode) },
        reply.elapsedTime / 1000,
      );
    });

    // The rooms' gauges, where rooms run (not on a control plane of agents elsewhere).
    if (app.hasDecorator('roomEngine')) {
      const engine = app.roomEngine;
      new Gauge({
        name: 'rooms_rooms',
        help: 'Rooms on this server by state',
        labelNames: ['state'] as const,
        registers: [registry],
        collect() {
          const counts = new Map<string, number>(ROOM_STATES.map((state) => [state, 0]));
          for (const room of engine.roomList()) {
            if (counts.has(room.state)) counts.set(room.state, (counts.get(room.state) ?? 0) + 1);
          }
          for (const [state, count] of counts) this.set({ state }, count);
        },
      });
      new Gauge({
        name: 'rooms_warm_browsers',
        help: 'Room browsers kept warm for the next start: ready, or still starting',
        labelNames: ['status'] as const,
        registers: [registry],
        collect() {
          const { ready, total } = engine.warmRuns();
          this.set({ status: 'ready' }, ready);
          this.set({ status: 'starting' }, total - ready);
        },
      });
      new Gauge({
        name: 'rooms_participants',
        help: 'Participants connected to the rooms of this server',
        registers: [registry],
        collect() {
          this.set(engine.roomList().reduce((sum, room) => sum + room.participants, 0));
        },
      });
      const streams = () => {
        const totals = new Map<string, { fps: number; kbps: number }>(
          MEDIA_PATHS.map((path) => [path, { fps: 0, kbps: 0 }]),
        );
        for (const room of engine.roomList()) {
          const media = engine.mediaStats(room.roomId);
          const total = media && totals.get(media.path);
          if (!total || !media) continue;
          total.fps += media.fps;
          total.kbps += media.kbps;
        }
        return totals;
      };
      new Gauge({
        name: 'rooms_stream_fps',
        help: 'Frames per second the rooms send, summed by media path',
        labelNames: ['path'] as const,
        registers: [registry],
        collect() {
          for (const [path, total] of streams()) this.set({ path }, Math.round(total.fps * 10) / 10);
        },
      });
      new Gauge({
        name: 'rooms_stream_bitrate_kbps',
        help: 'Picture bitrate the rooms send, summed by media path, kbit/s',
        labelNames: ['path'] as const,
        registers: [registry],
        collect() {
          for (const [path, total] of streams()) this.set({ path }, Math.round(total.kbps));
        },
      });
      const crashes = new Counter({
        name: 'rooms_browser_crashes_total',
        help: 'Room browsers that exited on their own',
        registers: [registry],
      });
      const starts = new Counter({
        name: 'rooms_room_starts_total',
        help: 'Rooms that came up running on this server (a failover start on its new agent included)',
        registers: [registry],
      });
      // Each run's count read at scrape time, added as it grows; a room's next run starts again from 0.
      const freezesSeen = new Map<string, number>();
      new Counter({
        name: 'rooms_stream_freezes_total',
        help: 'Times a room picture stalled for a second or more while viewers watched (H.264 path)',
        registers: [registry],
        collect() {
          const rooms = new Set<string>();
          for (const room of engine.roomList()) {
            const freezes = engine.mediaStats(room.roomId)?.freezes;
            if (freezes === undefined) continue;
            rooms.add(room.roomId);
            const seen = freezesSeen.get(room.roomId) ?? 0;
            this.inc(freezes >= seen ? freezes - seen : freezes);
            freezesSeen.set(room.roomId, freezes);
          }
          for (const roomId of freezesSeen.keys()) if (!rooms.has(roomId)) freezesSeen.delete(roomId);
        },
      });
      const unsubscribe = engine.onStateChange((change) => {
        if (change.state === 'crashed') crashes.inc();
        if (change.state === 'running') starts.inc();
      });
      app.addHook('onClose', async () => unsubscribe());
    }

    // Read from PostgreSQL at scrape time; a scrape while the database is away still answers the rest.
    const query = async <T>(sql: string): Promise<T[] | undefined> => {
      try {
        return await app.orm.em.fork().execute<T[]>(sql);
      } catch {
        return undefined;
      }
    };

    // The fleet as its control plane sees it: failovers it carried out, and how late the agents' heartbeats are.
    const duties = app.fleetDuties;
    if (duties) {
      // The duties count since the process started; the counter catches up to them at each scrape.
      const reported = { restarted: 0, givenUp: 0 };
      new Counter({
        name: 'rooms_failovers_total',
        help: 'Rooms lost with their agent, by outcome: started again on another agent, or given up',
        labelNames: ['outcome'] as const,
        registers: [registry],
        collect() {
          const counts = duties.failovers();
          this.inc({ outcome: 'restarted' }, counts.restarted - reported.restarted);
          this.inc({ outcome: 'given_up' }, counts.givenUp - reported.givenUp);
          Object.assign(reported, counts);
        },
      });
      new Gauge({
        name: 'rooms_fleet_heartbeat_lag_seconds',
        help: 'Time since the oldest heartbeat among agents not lost; an agent is lost once it passes 10 s',
        registers: [registry],
        async collect() {
          const rows = await query<{ lag: number }>(
            `select coalesce(extract(epoch from now() - min(heartbeat_at)), 0)::float8 as lag
               from room_agents where state <> 'lost'`,
          );
          this.set(rows?.[0]?.lag ?? 0);
        },
      });
    }

    new Gauge({
      name: 'rooms_job_queue_depth',
      help: 'Jobs waiting in the PostgreSQL job queue (billing: expiry, renewals, metering)',
      registers: [registry],
      async collect() {
        const rows = await query<{ depth: number }>(
          `select count(*)::int as depth from pgboss.job where state in ('created', 'retry')`,
        );
        this.set(rows?.[0]?.depth ?? 0);
      },
    });
    new Gauge({
      name: 'rooms_payments',
      help: 'Bills by status',
      labelNames: ['status'] as const,
      registers: [registry],
      async collect() {
        const rows = await query<{ status: string; count: number }>(
          'select status, count(*)::int as count from payments group by status',
        );
        this.reset();
        for (const row of rows ?? []) this.set({ status: row.status }, row.count);
      },
    });
    new Gauge({
      name: 'rooms_payment_notifications',
      help: 'Payment provider notifications by outcome',
      labelNames: ['outcome'] as const,
      registers: [registry],
      async collect() {
        const rows = await query<{ outcome: string; count: number }>(
          'select outcome, count(*)::int as count from payment_events group by outcome',
        );
        this.reset();
        for (const row of rows ?? []) this.set({ outcome: row.outcome }, row.count);
      },
    });

    app.get('/metrics', async (request, reply) => {
      if (!mayScrape(request, options.config.metricsToken)) {
        return reply.code(404).send({ msg: 'error', data: 'Not found' });
      }
      return reply.type(registry.contentType).send(await registry.metrics());
    });
  },
  { name: 'metrics', dependencies: ['services'] },
);
