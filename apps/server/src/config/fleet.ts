// What this process is in the fleet (ROOM_ROLE), how agents and gateways reach the control plane and one another,
// the fleet's credentials (their rules: fleet/fleet-config.ts), and how the control plane gets an agent for a start.
import { z } from 'zod';
import type { TEnv } from '../env';
import { fleetCredentialIssues, fleetCredentials } from '../fleet/fleet-config';
import { commaList, optionalPort, optionalString, type TReport } from './variable';

export const fleetVariables = {
  /**
   * What this process is (ARCHITECTURE.md): `all` (npm start: the control plane with one local room agent),
   * `control` (API, web app, tickets, placement, the lost sweep), `agent` (rooms: engine, media, room hubs), or
   * `gateway` (participants' room sockets, forwarded to the agent running the room).
   */
  ROOM_ROLE: z.enum(['all', 'control', 'agent', 'gateway']).default('all'),
  /** Where the control plane and the gateways reach this agent (host:port); required for ROOM_ROLE=agent. */
  AGENT_ADDRESS: optionalString.pipe(
    z
      .string()
      // An IPv6 address in brackets, as a URL writes it: pods of an IPv6 cluster are reached that way.
      .regex(/^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]):\d{1,5}$/, 'must be host:port, or [IPv6]:port')
      .refine(
        (address) => Number(address.slice(address.lastIndexOf(':') + 1)) <= 65_535,
        'port must be ≤ 65535',
      )
      .optional(),
  ),
  /** Comma-separated zone codes this agent serves; unset: every enabled zone. */
  AGENT_REGIONS: optionalString.transform((value) => (value === undefined ? undefined : commaList(value))),
  /**
   * The control plane's address on the private network (e.g. http://control-plane.rooms:3000), for agents and
   * gateways: agents send their heartbeats there, and both hear the database's notices from its relay. Unset:
   * each writes its heartbeats and listens on the database itself, a connection or two per process, which a large
   * fleet cannot afford.
   */
  CONTROL_URL: optionalString.pipe(z.url().optional()),
  /**
   * The fleet's credentials (ARCHITECTURE.md, "Fleet credentials"). Control planes only: the Ed25519 private key
   * that signs the credentials of agents and gateways and the control plane's orders (PEM, or its 32-byte seed
   * in base64). Unset outside production: derived from APP_SECRET; in production `all` generates one into
   * DATA_DIR.
   */
  FLEET_SIGNING_KEY: optionalString,
  /**
   * Agents (gateways may pin it too): the signing key's public half (PEM, or 32 bytes in base64), what the
   * control plane's orders are checked with. Unset: taken from the control plane at enrolment (CONTROL_URL).
   */
  FLEET_VERIFY_KEY: optionalString,
  /** What an agent enrols with at the control plane (agents and control planes hold it, never gateways). */
  FLEET_AGENT_JOIN_TOKEN: optionalString.pipe(
    z.string().min(32, 'must be at least 32 characters').optional(),
  ),
  /** What a gateway enrols with at the control plane (gateways and control planes hold it, never agents). */
  FLEET_GATEWAY_JOIN_TOKEN: optionalString.pipe(
    z.string().min(32, 'must be at least 32 characters').optional(),
  ),
  /** The agent's name where it runs: its pod's (and so its GameServer's) name on Kubernetes. */
  AGENT_NAME: optionalString.pipe(z.string().max(253).optional()),
  /**
   * How the control plane gets an agent for a start: `process` places it on a registered agent with a free slot;
   * `agones` first allocates a Ready agent GameServer of the room's zone from the Agones Fleet (Kubernetes API),
   * then places the room on that agent.
   */
  ROOM_RUNTIME: z.enum(['process', 'agones']).default('process'),
  /** The room agents' Fleet and its namespace, for ROOM_RUNTIME=agones (deploy/kubernetes). */
  AGONES_FLEET: z.string().default('room-agents'),
  AGONES_NAMESPACE: z.string().default('rooms-agents'),
  /** Set by Agones on a GameServer's containers: the agent then tells the SDK sidecar when it is Ready and healthy. */
  AGONES_SDK_HTTP_PORT: optionalPort(1),
};

export function fleetIssues(env: TEnv, report: TReport): void {
  if (env.ROOM_ROLE === 'agent' && !env.AGENT_ADDRESS) {
    report(
      'AGENT_ADDRESS',
      'is required when ROOM_ROLE=agent: the control plane and the gateways reach the agent there',
    );
  }
  fleetCredentialIssues(env, report);
  if (env.ROOM_ROLE !== 'all' && !env.DATABASE_URL) {
    report(
      'DATABASE_URL',
      `is required when ROOM_ROLE=${env.ROOM_ROLE}: every process of the install shares one database`,
    );
  }
}

export function fleetConfig(env: TEnv, appSecret: string) {
  return {
    /** What this process is: see ROOM_ROLE. */
    role: env.ROOM_ROLE,
    /** Where an agent or a gateway reaches the control plane (CONTROL_URL); undefined: the database directly. */
    controlUrl: env.CONTROL_URL,
    /** This process's part of the fleet's credentials (fleet/fleet-auth.ts): each role holds only what it needs. */
    fleet: fleetCredentials(env, appSecret),
    agent: {
      /** Where others reach this agent (host:port); undefined in `all`, where the agent is reached in-process. */
      address: env.AGENT_ADDRESS,
      /** Zone codes this agent serves; undefined: every enabled zone. */
      regions: env.AGENT_REGIONS,
      /** Its name where it runs (the GameServer's under Agones), reported with its heartbeats. */
      name: env.AGENT_NAME,
      /** The Agones SDK sidecar's port, when the agent runs as a GameServer. */
      agonesSdkPort: env.AGONES_SDK_HTTP_PORT,
    },
    /** How the control plane gets an agent for a start: see ROOM_RUNTIME. */
    runtime:
      env.ROOM_RUNTIME === 'agones'
        ? { kind: 'agones' as const, fleet: env.AGONES_FLEET, namespace: env.AGONES_NAMESPACE }
        : { kind: 'process' as const },
  };
}
