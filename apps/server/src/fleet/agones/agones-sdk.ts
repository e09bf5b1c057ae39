// A room agent under Agones talks to the SDK server, the sidecar Agones puts in the agent's pod, over its HTTP
// gateway on loopback (AGONES_SDK_HTTP_PORT, 9358 by default): Ready once the agent takes rooms, a health ping
// at an interval shorter than the GameServer's health.periodSeconds (or Agones restarts the pod as Unhealthy),
// Allocate when the agent takes a room itself, labels for what the control plane may select on, the room slots'
// Counter (the beta Counters API), and Shutdown when the agent stops so Agones deletes the pod instead of waiting
// for it to fail health checks.
// The sidecar may come up after the agent, so Ready retries until the sidecar answers.

export interface TAgonesSdkOptions {
  /** The SDK server's HTTP port (AGONES_SDK_HTTP_PORT). */
  port: number;
  /** Where the sidecar listens: loopback in the agent's pod. */
  host?: string;
  /** How long one call may take. */
  timeoutMs?: number;
}

/** The GameServer as the SDK server's GET /gameserver describes it (the fields the agent reads). */
export interface TAgonesGameServer {
  object_meta?: { name?: string; namespace?: string; labels?: Record<string, string> };
  status?: { state?: string; address?: string; ports?: { name?: string; port?: number }[] };
}

/** A Counter as the SDK server's REST gateway answers it (int64 values come as strings). */
export interface TAgonesCounter {
  count: number;
  capacity: number;
}

export class AgonesSdkError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'AgonesSdkError';
  }
}

export class AgonesSdk {
  private readonly base: string;
  private readonly timeoutMs: number;

  constructor(options: TAgonesSdkOptions) {
    const host = options.host ?? '127.0.0.1';
    this.base = `http://${host.includes(':') ? `[${host}]` : host}:${options.port}`;
    this.timeoutMs = options.timeoutMs ?? 5_000;
  }

  /** The GameServer may now be allocated (state Ready). */
  ready(): Promise<void> {
    return this.call('POST', '/ready', {}).then(() => undefined);
  }

  /** One health ping; Agones marks the GameServer Unhealthy when they stop. */
  health(): Promise<void> {
    return this.call('POST', '/health', {}).then(() => undefined);
  }

  /** The agent took a room on its own (not through a GameServerAllocation): state Allocated. */
  allocate(): Promise<void> {
    return this.call('POST', '/allocate', {}).then(() => undefined);
  }

  /** The agent is done: Agones deletes the GameServer and its pod. */
  shutdown(): Promise<void> {
    return this.call('POST', '/shutdown', {}).then(() => undefined);
  }

  /** A label on the GameServer; Agones prefixes the key with `agones.dev/sdk-`. */
  setLabel(key: string, value: string): Promise<void> {
    return this.call('PUT', '/metadata/label', { key, value }).then(() => undefined);
  }

  setAnnotation(key: string, value: string): Promise<void> {
    return this.call('PUT', '/metadata/annotation', { key, value }).then(() => undefined);
  }

  /** A Counter of the GameServer, with the changes this pod made and the sidecar has not written yet. */
  async counter(name: string): Promise<TAgonesCounter> {
    const answer = (await this.call('GET', `/v1beta1/counters/${encodeURIComponent(name)}`)) as {
      count?: string | number;
      capacity?: string | number;
    };
    return { count: Number(answer.count ?? 0), capacity: Number(answer.capacity ?? 0) };
  }

  /**
   * Moves a Counter's count by `countDiff` (relative, so an allocation's increment landing at the same time is
   * kept), or sets its capacity. Agones refuses a count outside [0, capacity].
   */
  async updateCounter(
    name: string,
    update: { countDiff: number } | { capacity: number },
  ): Promise<TAgonesCounter> {
    const body =
      'countDiff' in update ? { countDiff: String(update.countDiff) } : { capacity: String(update.capacity) };
    const answer = (await this.call('PATCH', `/v1beta1/counters/${encodeURIComponent(name)}`, body)) as {
      count?: string | number;
      capacity?: string | number;
    };
    return { count: Number(answer.count ?? 0), capacity: Number(answer.capacity ?? 0) };
  }

  async gameServer(): Promise<TAgonesGameServer> {
    return (await this.call('GET', '/gameserver')) as TAgonesGameServer;
  }

  private async call(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH',
    path: string,
    body?: object,
  ): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${this.base}${path}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new AgonesSdkError(
        `the Agones SDK server at ${this.base} did not answer ${method} ${path}: ${(error as Error).message}`,
      );
    }
    const text = await response.text();
    if (!response.ok) {
      throw new AgonesSdkError(
        `the Agones SDK server answered ${method} ${path} with ${response.status}: ${text.slice(0, 200)}`,
        response.status,
      );
    }
    return text ? JSON.parse(text) : {};
  }
}

interface TLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export interface TAgonesLifecycleOptions {
  sdkPort: number;
  log: TLog;
  sdkHost?: string;
  /** Between health pings; keep it well under the Fleet's health.periodSeconds (deploy/kubernetes: 10 s). */
  healthIntervalMs?: number;
  /** Between tries of Ready while the sidecar is not up yet. */
  retryDelayMs?: number;
  /** How long Ready keeps trying before it gives up. */
  readyTimeoutMs?: number;
}

export interface TAgonesLifecycle {
  /** Marks the GameServer Ready, trying until the sidecar answers (or readyTimeoutMs passes). */
  ready(): Promise<void>;
  /** Stops the health pings and asks Agones to shut the GameServer down. */
  close(): Promise<void>;
  readonly sdk: AgonesSdk;
}

/**
 * Health pings start at once (the SDK server expects them from the pod's start, after the Fleet's
 * initialDelaySeconds); Ready is the agent's to call when it can take a room.
 */
export function startAgonesLifecycle(options: TAgonesLifecycleOptions): TAgonesLifecycle {
  const { log } = options;
  const sdk = new AgonesSdk({ port: options.sdkPort, host: options.sdkHost });
  const healthIntervalMs = options.healthIntervalMs ?? 2_000;
  const retryDelayMs = options.retryDelayMs ?? 500;
  const readyTimeoutMs = options.readyTimeoutMs ?? 60_000;
  let closed = false;
  let pinging: Promise<void> = Promise.resolve();
  // A failing sidecar would otherwise log twice a second: once when pings start failing, once when they recover.
  let healthFailing = false;

  const ping = () => {
    pinging = sdk.health().then(
      () => {
        if (healthFailing) log.info({}, 'Agones health pings answered again');
        healthFailing = false;
      },
      (error: Error) => {
        if (!healthFailing && !closed) log.warn({ err: error }, 'Agones health ping failed');
        healthFailing = true;
      },
    );
  };
  ping();
  const timer = setInterval(ping, healthIntervalMs);
  timer.unref();

  return {
    sdk,
    async ready() {
      const deadline = Date.now() + readyTimeoutMs;
      for (;;) {
        if (closed) throw new AgonesSdkError('the Agones lifecycle was closed before the agent was Ready');
        try {
          await sdk.ready();
          log.info({}, 'Agones GameServer marked Ready');
          return;
        } catch (error) {
          if (Date.now() + retryDelayMs > deadline) throw error;
          await new Promise((resolve) => setTimeout(resolve, retryDelayMs));
        }
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      await pinging;
      try {
        await sdk.shutdown();
        log.info({}, 'Agones GameServer asked to shut down');
      } catch (error) {
        // The pod is going anyway; Agones notices the missing health pings.
        log.warn({ err: error }, 'Agones shutdown failed');
      }
    },
  };
}
