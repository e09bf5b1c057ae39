// This process as a room agent of the fleet: it registers in every zone it serves, says how it is doing at each
// heartbeat (what /serverstate shows of it, for every server on the database; the heartbeat also renews its runs'
// leases), and leaves the fleet at once when it shuts down, its runs lost so the control plane starts their rooms
// again elsewhere. Each heartbeat's answer names the runs the fleet holds the agent to; a run live here that no
// answer names stops: the agent was declared lost in that zone (a stall longer than the fleet's patience; it
// registers there again as a new agent) and its rooms were given away, or a stop never reached it. An agent that
// cannot reach the database for as long as a run's lease stops its rooms too: by then the fleet may have started
// them elsewhere, and two copies of a room must not run.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import { fleet, type NodeMonitor, toServerNode } from '@rooms/api';
import type { TKnock } from '@rooms/api/room-protocol';
import { Region } from '@rooms/db';
import { SERVER_ROOT } from '../env';
import type { THeartbeatSink } from './heartbeat-batcher';

/** This server's build, as agents report it (an operator sees a mixed fleet during an upgrade). */
const VERSION: string = JSON.parse(readFileSync(join(SERVER_ROOT, 'package.json'), 'utf8')).version;

interface TLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

/**
 * How it registers, one new agent per zone (an earlier one at this address there is lost): through the control
 * plane (CONTROL_URL), which puts the new ids in this process's credential, or in the database itself.
 * Resolves zone code → agent id.
 */
export type TRegisterAgents = (
  regionCodes: readonly string[],
  agent: { address: string; capacity: number; version: string },
) => Promise<ReadonlyMap<string, string>>;

/** Registration in the database by the agent itself: `npm start`'s, and an agent's without CONTROL_URL. */
export function registerInDatabase(orm: MikroORM, now: () => Date = () => new Date()): TRegisterAgents {
  return async (regionCodes, agent) => {
    const ids = new Map<string, string>();
    for (const regionCode of regionCodes) {
      const registered = await fleet.registerAgent(orm.em.fork(), { regionCode, ...agent }, now());
      ids.set(regionCode, registered.agent.id);
    }
    return ids;
  };
}

export interface TLocalAgentOptions {
  orm: MikroORM;
  /** Where its heartbeats go: the control plane (CONTROL_URL), or this process's own batcher. */
  heartbeats: THeartbeatSink;
  /** How it registers; by default in the database itself. */
  register?: TRegisterAgents;
  node: NodeMonitor;
  log: TLog;
  /** Where the control plane and gateways reach this agent (AGENT_ADDRESS); unset: reached in-process only. */
  address?: string;
  /** The zones it serves (AGENT_REGIONS); unset: every enabled zone. */
  regions?: readonly string[];
  /** Its name where it runs (AGENT_NAME: the GameServer's under Agones), reported with every heartbeat. */
  name?: string;
  /** People inside each of its rooms, reported with every heartbeat (the control plane's member counts). */
  members?: () => Record<string, number>;
  /** The knocks waiting at its rooms' doors, reported beside them (the control plane's knock alerts). */
  knocks?: () => Record<string, TKnock[]>;
  /** The runs live on this agent now; with `abandonUnheld`, how the heartbeat's answers are acted on. */
  runIds?: () => ReadonlySet<string>;
  /** Stops the runs of `candidates` (live before the heartbeat) that no answer held this agent to. */
  abandonUnheld?: (candidates: ReadonlySet<string>, held: ReadonlySet<string>) => Promise<void>;
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
  // Each start is a new agent (a restarted process has lost its browsers). An agent of its own process is named
  // by machine, process and start, so two servers in one process (tests) or a quick restart never pass for one
  // another; an agent others reach keeps its address, and registering there again loses its former runs at once.
  const address = options.address ?? `${hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;
  const agents = new Map<string, string>();
  let closed = false;
  /** When every zone last answered a heartbeat. */
  let lastAnswered = Date.now();
  let fenced = false;
  let busy: Promise<unknown> = Promise.resolve();

  const registerAgents = options.register ?? registerInDatabase(orm, now);
  const register = async (regionCodes: readonly string[]) => {
    const capacity = node.state().rooms.max;
    if (capacity < 1 || regionCodes.length === 0) return;
    const ids = await registerAgents(regionCodes, { address, capacity, version: VERSION });
    for (const [regionCode, agentId] of ids) agents.set(regionCode, agentId);
  };

  const beat = async () => {
    if (fenced) {
      // Its rooms stopped while no heartbeat was answered: it joins again as a new agent, which loses its former
      // runs, so the fleet starts those rooms again rather than count them running here.
      await register([...agents.keys()]);
      fenced = false;
    }
    const report = {
      ...toServerNode(node.state()),
      agentName: options.name ?? null,
      members: options.members?.() ?? {},
      knocks: options.knocks?.() ?? {},
    };
    // Taken before the answers: a run that starts while they come may be missing from them.
    const candidates = new Set(options.runIds?.() ?? []);
    const held = new Set<string>();
    const zones = [...agents];
    const runIds = options.runIds?.();
    const answers = await options.heartbeats(zones.map(([, agentId]) => ({ agentId, report, held: runIds })));
    const lostZones: string[] = [];
    for (const [index, [regionCode, agentId]] of zones.entries()) {
      const answer = answers[index]!;
      if (answer.ok) {
        for (const runId of answer.runIds) held.add(runId);
        continue;
      }
      // Declared lost (a stall longer than the threshold): this process still serves, so it joins again.
      log.warn(
        { regionCode, agentId },
        'this agent was declared lost by the fleet in this zone; its rooms there run elsewhere now',
      );
      lostZones.push(regionCode);
    }
    await register(lostZones);
    lastAnswered = Date.now();
    await options.abandonUnheld?.(candidates, held);
  };

  /** A heartbeat; when none has been answered for a run's lease, the rooms here stop (the next answer re-registers). */
  const beatOrFence = async () => {
    try {
      await beat();
    } catch (error) {
      // Only an agent others reach can have its rooms started elsewhere; npm start's places its rooms itself.
      if (options.address !== undefined && !fenced && Date.now() - lastAnswered >= fleet.RUN_LEASE_MS) {
        fenced = true;
        log.warn(
          {},
          'no heartbeat answered for a run’s lease: this agent’s rooms stop, they may run elsewhere now',
        );
        await options.abandonUnheld?.(new Set(options.runIds?.() ?? []), new Set());
      }
      throw error;
    }
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

  const regions = await orm.em
    .fork()
    .find(
      Region,
      { enabled: true, ...(options.regions ? { code: { $in: [...options.regions] } } : {}) },
      { orderBy: { code: 'asc' } },
    );
  await register(regions.map((region) => region.code));
  // Said at once, not at the first tick: what it is called and how loaded (placement under Agones finds it by name).
  await beat();
  const timers = [every(fleet.HEARTBEAT_INTERVAL_MS, beatOrFence, 'heartbeat')];

  return {
    ids: () => new Set(agents.values()),
    async close() {
      closed = true;
      for (const timer of timers) clearInterval(timer);
      await busy;
      for (const agentId of agents.values()) {
        await fleet.retireAgent(orm.em.fork(), agentId, now()).catch((error: unknown) => {
          log.warn({ err: error }, 'could not leave the fleet; the sweep will mark this agent lost');
        });
      }
    },
  };
}
