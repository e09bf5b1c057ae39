// An agent's loss noticed where it shows first: a gateway's socket to it breaks the moment its process dies, seconds
// before its silence would (fleet-duties.ts). The gateway reports the agent to the control plane (a gateway's
// credential: no agent can report another);
// the control plane probes the agent's registered address once, and only if that fails is the agent lost with its
// runs and its rooms queued for restart at once. A report never names an address: the probe goes only where the
// agent registered, so the route cannot be turned against anything else.
import type { MikroORM } from '@mikro-orm/postgresql';
import { fleet } from '@rooms/api';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { checkCaller, type TFleetAuth } from './fleet-auth';
import type { TFleetCaller } from './fleet-callers';
import { CONTROL_AUDIENCE } from './fleet-credentials';

export const agentReportPath = (agentId: string) =>
  `/fleet/agents/${encodeURIComponent(agentId)}/unreachable`;

/** A gateway reports one agent at most this often: every participant of its rooms sees the same break. */
const REPORT_AGAIN_AFTER_MS = 5_000;
const REPORT_TIMEOUT_MS = 5_000;

export interface TAgentReportsOptions {
  orm: MikroORM;
  auth: TFleetAuth;
  log: FastifyBaseLogger;
  /** Queues the lost rooms' restarts now (fleet duties). */
  restartLost(): Promise<void>;
  /** The probe; by default GET /healthz at the agent's address. Resolves whether the agent answered. */
  probe?: (address: string) => Promise<boolean>;
  now?: () => Date;
}

/** Whether the agent at `address` answers its health check within the probe's time. */
export async function probeAgent(address: string): Promise<boolean> {
  try {
    const response = await fetch(`http://${address}/healthz`, {
      signal: AbortSignal.timeout(fleet.SUSPECT_PROBE_TIMEOUT_MS),
    });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

/** The control plane's side: `POST /fleet/agents/:agentId/unreachable`, answering whether the agent is now lost. */
export function registerAgentReports(app: FastifyInstance, options: TAgentReportsOptions): void {
  const probe = options.probe ?? probeAgent;
  const now = options.now ?? (() => new Date());
  // One probe per agent at a time: the reports of many gateways about one agent share it.
  const probing = new Map<string, Promise<boolean>>();

  const confirm = async (agentId: string): Promise<boolean> => {
    const suspect = await fleet.suspectAgent(options.orm.em.fork(), agentId);
    if (!suspect) return false;
    if (await probe(suspect.address)) return false;
    const runs = await fleet.loseUnreachableAgent(options.orm.em.fork(), suspect.id, now());
    options.log.warn(
      { agentId, address: suspect.address, rooms: runs.map((run) => run.roomId) },
      'a room agent reported unreachable did not answer: lost',
    );
    await options.restartLost();
    return true;
  };

  app.post<{ Params: { agentId: string } }>('/fleet/agents/:agentId/unreachable', async (request, reply) => {
    const checked = checkCaller(request, options.auth, ['gateway']);
    if (!checked.ok) {
      return reply.code(checked.status).send({
        code: 'FORBIDDEN',
        message:
          checked.status === 401
            ? 'Only the processes of this install may report an agent'
            : 'Only a gateway reports an agent unreachable',
        reason: checked.reason,
      });
    }
    const { agentId } = request.params;
    let pending = probing.get(agentId);
    if (!pending) {
      pending = confirm(agentId).finally(() => probing.delete(agentId));
      probing.set(agentId, pending);
    }
    return { lost: await pending };
  });
}

/**
 * The gateway's side: tells the control plane at `controlUrl` that its socket to an agent broke, once per agent
 * for a few seconds, without waiting for the answer. A control plane that cannot be reached changes nothing: the
 * agent's silence still makes it lost.
 */
export function agentReporter(controlUrl: string, caller: TFleetCaller, log: FastifyBaseLogger) {
  const reported = new Map<string, number>();
  return (agentId: string): void => {
    const at = Date.now();
    if (at - (reported.get(agentId) ?? -Infinity) < REPORT_AGAIN_AFTER_MS) return;
    reported.set(agentId, at);
    for (const [id, when] of reported) if (at - when >= REPORT_AGAIN_AFTER_MS) reported.delete(id);
    const path = agentReportPath(agentId);
    caller
      .authorization(CONTROL_AUDIENCE, 'POST', path)
      .then((authorization) =>
        fetch(new URL(path, controlUrl), {
          method: 'POST',
          headers: { authorization },
          signal: AbortSignal.timeout(REPORT_TIMEOUT_MS),
        }),
      )
      .then(async (response) => {
        const answer = (await response.json().catch(() => null)) as { lost?: boolean } | null;
        log.info({ agentId, status: response.status, lost: answer?.lost }, 'gateway: reported an agent gone');
      })
      .catch((error: unknown) =>
        log.warn({ err: error, agentId }, 'gateway: could not report an agent gone'),
      );
  };
}
