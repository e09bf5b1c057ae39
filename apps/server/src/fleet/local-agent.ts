// This server as a room agent of the fleet (issue 15's first wiring): it registers in every zone it serves, says
// how it is doing at each heartbeat (what /serverstate shows of it, for every server on the database), and sweeps
// up agents that fell silent. Rooms are not placed through the fleet yet: this process's engine still runs every
// room it is asked to, so the lost sweep's runs are none of its business for now; what the fleet knows is which
// servers are up, where, and how loaded. A server that shuts down leaves the fleet at once.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import type { MikroORM } from '@mikro-orm/postgresql';
import { fleet, type NodeMonitor, toServerNode } from '@rooms/api';
import { Region } from '@rooms/db';

/** This server's build, as agents report it (an operator sees a mixed fleet during an upgrade). */
const VERSION: string = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
).version;

interface TLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export interface TLocalAgentOptions {
  orm: MikroORM;
  node: NodeMonitor;
  log: TLog;
  now?: () => Date;
}

export interface TLocalAgent {
  /** The agents this server registered as, one per zone it serves. */
  ids(): ReadonlySet<string>;
  close(): Promise<void>;
}

export async function startLocalAgent(options: TLocalAgentOptions): Promise<TLocalAgent> {
  const { orm, node, log } = options;
  const now = options.now ?? (() => new Date());
  // Each start is a new agent (a restarted process has lost its browsers): the name says which machine and process,
  // and which start of it, so two servers in one process (tests) or a quick restart never pass for one another.
  // The silent earlier agent is swept out as lost. A gateway address comes with the agent role (issue 15).
  const address = `${hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;
  const agents = new Map<string, string>();
  let closed = false;
  let busy: Promise<unknown> = Promise.resolve();

  const register = async (regionCode: string) => {
    const capacity = node.state().rooms.max;
    if (capacity < 1) return;
    const { agent } = await fleet.registerAgent(
      orm.em.fork(),
      { regionCode, address, capacity, version: VERSION },
      now(),
    );
    agents.set(regionCode, agent.id);
  };

  const beat = async () => {
    const report = toServerNode(node.state());
    for (const [regionCode, agentId] of agents) {
      const answer = await fleet.heartbeat(orm.em.fork(), agentId, now(), report);
      // Declared lost (a stall longer than the threshold): this process still serves, so it joins again.
      if (!answer.ok) {
        log.warn({ regionCode, agentId }, 'this server was declared lost by the fleet; registering again');
        await register(regionCode);
      }
    }
  };

  const sweep = async () => {
    const swept = await fleet.markLostAgents(orm.em.fork(), now());
    if (swept.agentIds.length > 0) log.info({ agents: swept.agentIds }, 'silent room servers marked lost');
  };

  /** One tick at a time; a tick that fails (the database away) is said and the next one tries again. */
  const every = (ms: number, work: () => Promise<void>, what: string) => {
    const timer = setInterval(() => {
      if (closed) return;
      busy = busy.then(work).catch((error: unknown) => log.warn({ err: error }, `fleet ${what} failed`));
    }, ms);
    timer.unref();
    return timer;
  };

  const regions = await orm.em.fork().find(Region, { enabled: true }, { orderBy: { code: 'asc' } });
  for (const region of regions) await register(region.code);
  const timers = [
    every(fleet.HEARTBEAT_INTERVAL_MS, beat, 'heartbeat'),
    every(fleet.LOST_SWEEP_INTERVAL_MS, sweep, 'sweep'),
  ];

  return {
    ids: () => new Set(agents.values()),
    async close() {
      closed = true;
      for (const timer of timers) clearInterval(timer);
      await busy;
      for (const agentId of agents.values()) {
        await fleet.retireAgent(orm.em.fork(), agentId, now()).catch((error: unknown) => {
          log.warn({ err: error }, 'could not leave the fleet; the sweep will mark this server lost');
        });
      }
    },
  };
}
