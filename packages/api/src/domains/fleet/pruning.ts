// The fleet's history is kept for a day, then pruned: every agent start is a new row and every room start a new run,
// so a large fleet adds hundreds of thousands of rows a week that nothing reads once they are over. Pruned in
// slices, so a control plane's tick never holds locks for long, and what a rule still reads is kept: a room's
// newest run (its epoch, and a lost room waiting to start again), and every agent such a run names.
import type { EntityManager } from '@mikro-orm/postgresql';

/** How long ended runs and lost agents are kept (an operator looking back at yesterday's failover finds them). */
export const FLEET_HISTORY_MS = 24 * 60 * 60 * 1000;
/** Rows deleted per statement: a slice takes milliseconds however much has piled up. */
const PRUNE_SLICE = 2000;

export interface TPruned {
  runs: number;
  agents: number;
}

/** Deletes one slice of ended runs and lost agents older than FLEET_HISTORY_MS. */
export async function pruneFleet(em: EntityManager, now: Date, slice = PRUNE_SLICE): Promise<TPruned> {
  const before = new Date(now.getTime() - FLEET_HISTORY_MS);
  const runs = await em.execute<{ id: string }[]>(
    `delete from room_runs where id in (
       select r.id from room_runs r
       where r.state in ('stopped', 'lost') and r.ended_at < ?
         and exists (select 1 from room_runs newer where newer.room_id = r.room_id and newer.epoch > r.epoch)
       limit ?)
     returning id`,
    [before, slice],
  );
  const agents = await em.execute<{ id: string }[]>(
    `delete from room_agents where id in (
       select a.id from room_agents a
       where a.state = 'lost' and a.heartbeat_at < ?
         and not exists (select 1 from room_runs r where r.agent_id = a.id)
       limit ?)
     returning id`,
    [before, slice],
  );
  return { runs: runs.length, agents: agents.length };
}
