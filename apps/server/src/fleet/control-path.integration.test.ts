// A fleet's agents and gateways reach the database through the control plane for what is steady (issue 28): an
// agent's heartbeats go to the control plane, which writes them in batches, and agents and gateways hear the
// database's notices from its relay. So between their own writes they hold no connection to PostgreSQL, and a
// session ended on the control plane still closes what is open with it on an agent at once.
import { randomUUID } from 'node:crypto';
import type { TSessionChange } from '@rooms/api';
import { ROOM_LIST_CHANGED_CHANNEL } from '@rooms/db';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TTestServer } from '../testing/test-server';

let control: TTestServer;
let agent: TTestServer;
let gateway: TTestServer;
let database: pg.Client;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, ms = 10_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(100);
  }
}

beforeAll(async () => {
  control = await startTestServer({ env: { ROOM_ROLE: 'control' } });
  const fleetEnv = { DATABASE_URL: control.config.databaseUrl!, CONTROL_URL: control.url };
  [agent, gateway] = await Promise.all([
    startTestServer({
      env: {
        ...fleetEnv,
        ROOM_ROLE: 'agent',
        AGENT_ADDRESS: '127.0.0.1:9',
        ROOM_CAPACITY: '1',
        ROOM_MEDIA: 'screencast',
      },
    }),
    startTestServer({ env: { ...fleetEnv, ROOM_ROLE: 'gateway' } }),
  ]);
  database = new pg.Client({ connectionString: control.config.databaseUrl });
  await database.connect();
}, 60_000);

afterAll(async () => {
  await database?.end();
  await Promise.all([agent?.close(), gateway?.close()]);
  await control?.close();
});

describe('an agent and a gateway with CONTROL_URL', () => {
  it('heartbeat through the control plane, which writes them in batches', async () => {
    const [registered] = await database
      .query<{ id: string; heartbeat_at: Date }>(
        `select id, heartbeat_at from room_agents where state = 'active'`,
      )
      .then((result) => result.rows);
    expect(registered).toBeDefined();
    const before = control.app.fleetHeartbeats.counts().beats;
    await until('a heartbeat through the control plane', async () => {
      const { rows } = await database.query<{ heartbeat_at: Date }>(
        'select heartbeat_at from room_agents where id = $1',
        [registered!.id],
      );
      return rows[0]!.heartbeat_at > registered!.heartbeat_at ? true : undefined;
    });
    expect(control.app.fleetHeartbeats.counts().beats).toBeGreaterThan(before);
  });

  it('hold no connection to the database while idle', async () => {
    // Their pools close idle connections after 5 s; the control plane keeps its own (and its one listener).
    const held = async () =>
      (
        await database.query<{ name: string; connections: number }>(
          `select application_name as name, count(*)::int as connections from pg_stat_activity
           where datname = current_database() and application_name like 'rooms-%' group by 1 order by 1`,
        )
      ).rows;
    const settled = await until(
      'idle connections closed',
      async () => {
        const rows = await held();
        return rows.some((row) => row.name.startsWith('rooms-agent') || row.name.startsWith('rooms-gateway'))
          ? undefined
          : rows;
      },
      15_000,
    );
    expect(settled.map((row) => row.name)).toContain('rooms-control-notices');
  });

  it('hear a session ended on the control plane, and the database’s table notices, from its relay', async () => {
    const heard = (server: TTestServer) => {
      const changes: TSessionChange[] = [];
      server.app.sessionEvents.subscribeChanges((change) => changes.push(change));
      return changes;
    };
    const [onAgent, onGateway] = [heard(agent), heard(gateway)];
    const sessionId = randomUUID();
    await control.app.sessionEvents.ended({ sessionId });
    for (const changes of [onAgent, onGateway]) {
      await until('the session end relayed', () =>
        changes.some((change) => 'sessionId' in change && change.sessionId === sessionId) ? true : undefined,
      );
    }
    const tableKeys: string[] = [];
    agent.app.sessionEvents.subscribeTable(ROOM_LIST_CHANGED_CHANNEL, (change) => {
      if ('key' in change) tableKeys.push(change.key);
    });
    const owner = randomUUID();
    await database.query('select pg_notify($1, $2)', [ROOM_LIST_CHANGED_CHANNEL, owner]);
    await until('the table notice relayed', () => (tableKeys.includes(owner) ? true : undefined));
  });
});
