// Agents reported unreachable. A gateway whose socket to an agent broke says so at once, rather than the fleet
// waiting for the agent's silence; the control plane then asks the agent itself (one probe of its address), and
// only when that fails too is the agent lost, here, with its live runs. The report alone decides nothing: a
// mistaken or malicious one costs a probe of an agent that answers.
import type { EntityManager } from '@mikro-orm/postgresql';
import { agentById, retireAgent } from './agents';
import type { TRun } from './runs';

/** How long the probe of a reported agent may take: an agent that cannot answer its health check in this is gone. */
export const SUSPECT_PROBE_TIMEOUT_MS = 1_500;

/** The reported agent as the probe needs it: where it answers, while it is still live; else null. */
export async function suspectAgent(
  em: EntityManager,
  agentId: string,
): Promise<{ id: string; address: string } | null> {
  const agent = await agentById(em, agentId);
  return agent && agent.state !== 'lost' ? { id: agent.id, address: agent.address } : null;
}

/**
 * The probe could not reach the agent: it is lost at once with its live runs, which are returned (nothing when it
 * was lost meanwhile, by the sweep or another report). The same rows change as when an agent leaves on purpose.
 */
export function loseUnreachableAgent(em: EntityManager, agentId: string, now: Date): Promise<TRun[]> {
  return retireAgent(em, agentId, now);
}
