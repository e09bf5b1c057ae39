// How this process signs its calls to the others of the fleet. A control plane issues its own credential (it holds
// the signing key); an agent or a gateway enrols with a control plane (fleet-enrolment.ts) and renews before its
// credential expires. Either way the private key its calls are signed with is made here and never leaves.
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import {
  CONTROL_AUDIENCE,
  CREDENTIAL_LIFETIME_MS,
  fleetAuthorization,
  issueCredential,
  readCredential,
  type TCredential,
} from './fleet-credentials';
import { ENROL_PATH, HELD_CREDENTIAL_HEADER, type TEnrolment, ZEnrolled } from './fleet-enrolment';
import { parseVerifyKey, publicKeyText } from './fleet-keys';

export interface TFleetCaller {
  /**
   * The Authorization header for a call to `audience` (an agent's address, or CONTROL_AUDIENCE), waiting for a
   * first credential if this process has none yet.
   */
  authorization(audience: string, method: string, path: string): Promise<string>;
  /** The same with the credential held now; throws without one. */
  authorizationNow(audience: string, method: string, path: string): string;
}

/** A control plane's caller: a credential of role control it issues itself, renewed at half time. */
export function controlCaller(signingKey: KeyObject, name: string): TFleetCaller {
  const holder = generateKeyPairSync('ed25519');
  let held: { credential: string; exp: number } | undefined;
  const caller: TFleetCaller = {
    authorization: async (audience, method, path) => caller.authorizationNow(audience, method, path),
    authorizationNow(audience, method, path) {
      const now = Date.now();
      if (!held || held.exp - now < CREDENTIAL_LIFETIME_MS / 2) {
        const claims = {
          role: 'control' as const,
          sub: name,
          key: publicKeyText(holder.publicKey),
          agents: [],
          address: null,
        };
        held = { credential: issueCredential(signingKey, claims, now), exp: now + CREDENTIAL_LIFETIME_MS };
      }
      return fleetAuthorization(held.credential, holder.privateKey, { audience, method, path }, now);
    },
  };
  return caller;
}

interface TLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export interface TEnrolledCallerOptions {
  role: 'agent' | 'gateway';
  /** The control plane it enrols with (CONTROL_URL, else PUBLIC_URL). */
  controlUrl: string;
  joinToken: string;
  /** Its name in the control plane's logs. */
  name: string;
  /** An agent's address (AGENT_ADDRESS). */
  address?: string;
  /**
   * The fleet's verify key when configured (FLEET_VERIFY_KEY): a control plane that signs with another is refused.
   * Unset: the key the control plane answers with is taken.
   */
  verifyKey?: KeyObject;
  log: TLog;
}

/** How long a call waits for a first credential (the control plane starting too) before it fails. */
const FIRST_CREDENTIAL_WAIT_MS = 15_000;
const ENROL_TIMEOUT_MS = 10_000;
const RETRY_MS = 2_000;
const RENEW_CHECK_MS = 60_000;

/** An agent's or a gateway's caller: its credential from a control plane, renewed at half time. */
export class EnrolledCaller implements TFleetCaller {
  private readonly holder = generateKeyPairSync('ed25519');
  private held: { credential: string; claims: TCredential } | undefined;
  private learntVerifyKey: KeyObject | undefined;
  /** The zone of each agent id this process holds. */
  private readonly zones = new Map<string, string>();
  /** Enrolments one at a time: each keeps what the one before it got. */
  private chain: Promise<unknown> = Promise.resolve();
  private pending: Promise<void> | undefined;
  private readonly timer: NodeJS.Timeout;
  private closed = false;

  constructor(private readonly options: TEnrolledCallerOptions) {
    this.learntVerifyKey = options.verifyKey;
    this.timer = setInterval(() => void this.renewIfDue(), RENEW_CHECK_MS);
    this.timer.unref();
  }

  /** The key the fleet's credentials are checked with: configured, or learnt at enrolment. */
  verifyKey(): KeyObject | undefined {
    return this.learntVerifyKey;
  }

  /** Enrols now and, failing, again every few seconds until it has a credential (a gateway starting). */
  start(): void {
    void this.ensure().catch(() => {});
  }

  close(): void {
    this.closed = true;
    clearInterval(this.timer);
  }

  async authorization(audience: string, method: string, path: string): Promise<string> {
    if (!this.valid()) await this.ensure();
    return this.authorizationNow(audience, method, path);
  }

  authorizationNow(audience: string, method: string, path: string): string {
    if (!this.held || !this.valid()) throw new Error('this process holds no fleet credential now');
    return fleetAuthorization(this.held.credential, this.holder.privateKey, { audience, method, path });
  }

  /**
   * Registers this agent process in these zones, each as a new agent, through the control plane; the agent ids of
   * its other zones stay in its credential. Resolves zone code → agent id.
   */
  registerAgents(
    regionCodes: readonly string[],
    agent: { capacity: number; version: string },
  ): Promise<Map<string, string>> {
    return this.enrol(regionCodes, agent).then((registered) => new Map(Object.entries(registered)));
  }

  private valid(): boolean {
    // A credential about to expire still signs a call: the call is checked within seconds.
    return this.held !== undefined && this.held.claims.exp - Date.now() > 5_000;
  }

  /** A credential now, or after retries for up to FIRST_CREDENTIAL_WAIT_MS; enrolling on without waiters. */
  private ensure(): Promise<void> {
    this.pending ??= (async () => {
      const started = Date.now();
      for (;;) {
        try {
          // An enrolment of the agent's zones may have got one meanwhile.
          if (!this.valid()) await this.enrol([]);
          return;
        } catch (error) {
          this.options.log.warn(
            { err: error, controlUrl: this.options.controlUrl },
            'fleet: could not enrol with the control plane; trying again',
          );
          if (this.closed || Date.now() - started > FIRST_CREDENTIAL_WAIT_MS) throw error;
          await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
        }
      }
    })().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  private async renewIfDue(): Promise<void> {
    if (this.closed || !this.held) return;
    if (this.held.claims.exp - Date.now() > CREDENTIAL_LIFETIME_MS / 2) return;
    try {
      await this.enrol([]);
    } catch (error) {
      this.options.log.warn({ err: error }, 'fleet: could not renew this process’s credential; trying again');
    }
  }

  private enrol(
    register: readonly string[],
    agent?: { capacity: number; version: string },
  ): Promise<Record<string, string>> {
    const next = this.chain.then(() => this.enrolNow(register, agent));
    this.chain = next.catch(() => {});
    return next;
  }

  private async enrolNow(
    register: readonly string[],
    agent: { capacity: number; version: string } | undefined,
  ): Promise<Record<string, string>> {
    const { role, controlUrl, joinToken, name, address } = this.options;
    const key = publicKeyText(this.holder.publicKey);
    // Kept: the agent ids of a credential still valid, but not those of the zones registered anew.
    const held = this.valid() ? this.held : undefined;
    const keep = [...(held?.claims.agents ?? [])].filter(
      (agentId) => !register.includes(this.zones.get(agentId) ?? ''),
    );
    const body: TEnrolment = {
      role,
      key,
      name,
      ...(role === 'agent'
        ? { agent: { address: address ?? name, register: [...register], keep, ...agent } }
        : {}),
    };
    const headers: Record<string, string> = {
      authorization: `Bearer ${joinToken}`,
      'content-type': 'application/json',
    };
    if (held && keep.length > 0) {
      headers[HELD_CREDENTIAL_HEADER] = fleetAuthorization(held.credential, this.holder.privateKey, {
        audience: CONTROL_AUDIENCE,
        method: 'POST',
        path: ENROL_PATH,
      });
    }
    const response = await fetch(new URL(ENROL_PATH, controlUrl), {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(ENROL_TIMEOUT_MS),
    });
    const answer: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      const message = (answer as { message?: string } | null)?.message ?? 'no reason given';
      throw new Error(`the control plane refused the enrolment (${response.status}): ${message}`);
    }
    const enrolled = ZEnrolled.parse(answer);
    const offered = parseVerifyKey(enrolled.verifyKey);
    if (this.options.verifyKey && publicKeyText(this.options.verifyKey) !== enrolled.verifyKey) {
      throw new Error(
        'the control plane signs with another key than FLEET_VERIFY_KEY: its orders would be refused here',
      );
    }
    const claims = readCredential(enrolled.credential, offered);
    if (!claims || claims.role !== role || claims.key !== key) {
      throw new Error('the control plane answered with a credential that is not this process’s');
    }
    if (!this.learntVerifyKey) {
      this.options.log.info(
        { verifyKey: enrolled.verifyKey },
        'fleet: took the control plane’s verify key (FLEET_VERIFY_KEY pins it)',
      );
    }
    this.learntVerifyKey = offered;
    this.held = { credential: enrolled.credential, claims };
    for (const agentId of [...this.zones.keys()])
      if (!claims.agents.includes(agentId)) this.zones.delete(agentId);
    for (const [zone, agentId] of Object.entries(enrolled.registered)) this.zones.set(agentId, zone);
    return enrolled.registered;
  }
}
