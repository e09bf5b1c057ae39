// Room agents as Agones GameServers, each with room slots (its `rooms` Counter): the control plane takes a slot on
// an agent of the room's region by creating a GameServerAllocation through the Kubernetes API
// (allocation.agones.dev/v1, namespaced, create only: the API server answers at once with the outcome, nothing is
// stored). What is asked for is allocation-spec.ts: an Allocated agent with a slot left first, a Ready one only
// when every Allocated one is full (Agones then marks it Allocated, and the FleetAutoscaler, counting free room
// slots, starts another agent when the buffer runs low). No slot left in the region is a refusal the caller can
// show (SERVER_FULL), not a crash.

import { ApiException, CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import { AppError } from '@rooms/api';
import { allocationSpec } from './allocation-spec';

const GROUP = 'allocation.agones.dev';
const VERSION = 'v1';
const PLURAL = 'gameserverallocations';
/** Agones answers Contention when another allocation took the same GameServer first; trying again is right. */
const CONTENTION_TRIES = 3;

export interface TAgonesRuntimeOptions {
  /** Where the API server is and how to sign in: KubeConfig.loadFromCluster() in a pod (its service account). */
  kubeConfig: KubeConfig;
  /** The namespace of the room agents' Fleet. */
  namespace: string;
  /** The Fleet's name (deploy/kubernetes: room-agents). */
  fleet: string;
  /** How long one call to the API server may take before the start is refused (10 s by default). */
  timeoutMs?: number;
}

export interface TAgonesAllocationRequest {
  /** The region (zone) code the room runs in. */
  region: string;
  /** More annotations for the GameServer (e.g. the run's epoch). */
  annotations?: Record<string, string>;
}

export interface TAgonesAllocation {
  /** The GameServer's name, which is its pod's name. */
  name: string;
  /** The node's address Agones reports, and the agent's port on it. */
  address: string;
  port: number;
  nodeName?: string;
  /** Every address Agones reports (the node's, and the pod's as type PodIP where the Agones release has it). */
  addresses: { type?: string; address?: string }[];
}

interface TAllocationStatus {
  state?: string;
  gameServerName?: string;
  address?: string;
  nodeName?: string;
  addresses?: { type?: string; address?: string }[];
  ports?: { name?: string; port?: number }[];
}

export class AgonesRuntime {
  private readonly api: CustomObjectsApi;

  constructor(private readonly options: TAgonesRuntimeOptions) {
    this.api = options.kubeConfig.makeApiClient(CustomObjectsApi);
  }

  /** A room slot on an agent of the region (its count taken); SERVER_FULL when every agent there is full. */
  async allocate(request: TAgonesAllocationRequest): Promise<TAgonesAllocation> {
    const body = {
      apiVersion: `${GROUP}/${VERSION}`,
      kind: 'GameServerAllocation',
      spec: allocationSpec({ fleet: this.options.fleet, ...request }),
    };
    for (let attempt = 1; ; attempt++) {
      const status = await this.create(body);
      if (status.state === 'Allocated') return this.toAllocation(status);
      if (status.state === 'UnAllocated') {
        throw new AppError('SERVER_FULL', {
          cause: new Error(
            `no room agent with a free room slot in Fleet ${this.options.fleet} (namespace ${this.options.namespace}) for region ${request.region}`,
          ),
        });
      }
      if (status.state !== 'Contention' || attempt >= CONTENTION_TRIES) {
        throw new AppError('ROOMS_UNAVAILABLE', {
          cause: new Error(`the GameServerAllocation ended in state ${status.state ?? '(none)'}`),
        });
      }
    }
  }

  private async create(body: object): Promise<TAllocationStatus> {
    const timeoutMs = this.options.timeoutMs ?? 10_000;
    let timer: NodeJS.Timeout | undefined;
    try {
      const created = (await Promise.race([
        this.api.createNamespacedCustomObject({
          group: GROUP,
          version: VERSION,
          namespace: this.options.namespace,
          plural: PLURAL,
          body,
        }),
        // A room start waits on this call: an API server that does not answer must not hang it.
        new Promise<never>((_resolve, reject) => {
          timer = setTimeout(
            () => reject(new Error(`the Kubernetes API did not answer within ${timeoutMs} ms`)),
            timeoutMs,
          );
        }),
      ])) as { status?: TAllocationStatus };
      return created.status ?? {};
    } catch (error) {
      // RBAC refusals, Agones not installed (404), the API server out of reach: rooms cannot start, the log says why.
      const detail =
        error instanceof ApiException
          ? `the Kubernetes API answered ${error.code}: ${String(error.body).slice(0, 300)}`
          : (error as Error).message;
      throw new AppError('ROOMS_UNAVAILABLE', {
        cause: new Error(`allocating a room agent failed: ${detail}`),
      });
    } finally {
      clearTimeout(timer);
    }
  }

  private toAllocation(status: TAllocationStatus): TAgonesAllocation {
    const port = status.ports?.find((entry) => entry.name === 'agent')?.port ?? status.ports?.[0]?.port;
    if (!status.gameServerName || !status.address || port === undefined) {
      throw new AppError('ROOMS_UNAVAILABLE', {
        cause: new Error(`the GameServerAllocation names no address: ${JSON.stringify(status)}`),
      });
    }
    return {
      name: status.gameServerName,
      address: status.address,
      port,
      nodeName: status.nodeName,
      addresses: status.addresses ?? [],
    };
  }
}
