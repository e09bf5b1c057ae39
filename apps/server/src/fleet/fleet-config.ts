// The fleet's credentials as the environment gives them (config/fleet.ts declares the variables): which part each
// role may hold, what production requires, and what is derived outside production so `npm start` needs none of it.
import { createPublicKey, type KeyObject } from 'node:crypto';
import { resolve } from 'node:path';
import type { TReport } from '../config/variable';
import type { TEnv } from '../env';
import {
  developmentJoinToken,
  developmentSigningKey,
  generatedSigningKey,
  parseSigningKey,
  parseVerifyKey,
} from './fleet-keys';

/** This process's part of the fleet's credentials. */
export interface TFleetConfig {
  /** Control planes and `all`: signs credentials and orders. */
  signingKey: KeyObject | undefined;
  /** What credentials are checked with; undefined on an agent that learns it at enrolment, and on gateways. */
  verifyKey: KeyObject | undefined;
  /** The join tokens this process holds: a control plane both, an agent or a gateway its own. */
  joinTokens: { agent: string | undefined; gateway: string | undefined };
}

/** What fleetCredentialIssues reads of the environment. */
type TFleetEnv = Pick<
  TEnv,
  | 'NODE_ENV'
  | 'ROOM_ROLE'
  | 'CONTROL_URL'
  | 'FLEET_SIGNING_KEY'
  | 'FLEET_VERIFY_KEY'
  | 'FLEET_AGENT_JOIN_TOKEN'
  | 'FLEET_GATEWAY_JOIN_TOKEN'
>;

/**
 * Each role holds only its part of the fleet's credentials: an agent or a gateway given the signing key could order
 * every agent, an agent given the gateways' join token could enrol as one and open any room's feed. In production
 * nothing is derived, so each part a role needs must be given.
 */
export function fleetCredentialIssues(env: TFleetEnv, issue: TReport): void {
  for (const [name, parse] of [
    ['FLEET_SIGNING_KEY', parseSigningKey],
    ['FLEET_VERIFY_KEY', parseVerifyKey],
  ] as const) {
    const value = env[name];
    if (!value) continue;
    try {
      parse(value);
    } catch (error) {
      issue(name, (error as Error).message);
    }
  }
  const role = env.ROOM_ROLE;
  if ((role === 'agent' || role === 'gateway') && env.FLEET_SIGNING_KEY) {
    issue(
      'FLEET_SIGNING_KEY',
      `must not be given to ROOM_ROLE=${role}: whoever holds it can order every agent`,
    );
  }
  if (role === 'agent' && env.FLEET_GATEWAY_JOIN_TOKEN) {
    issue(
      'FLEET_GATEWAY_JOIN_TOKEN',
      'must not be given to an agent: it would let the agent enrol as a gateway',
    );
  }
  if (role === 'gateway' && env.FLEET_AGENT_JOIN_TOKEN) {
    issue(
      'FLEET_AGENT_JOIN_TOKEN',
      'must not be given to a gateway: it would let the gateway enrol as an agent',
    );
  }
  if (env.NODE_ENV !== 'production') return;
  const required = (name: Exclude<keyof TFleetEnv, 'NODE_ENV' | 'ROOM_ROLE'>, why: string) => {
    if (!env[name]) issue(name, `is required when ROOM_ROLE=${role} in production: ${why}`);
  };
  if (role === 'control') {
    required('FLEET_SIGNING_KEY', 'it signs the fleet’s credentials');
    required('FLEET_AGENT_JOIN_TOKEN', 'agents enrol with it');
    required('FLEET_GATEWAY_JOIN_TOKEN', 'gateways enrol with it');
  }
  if (role === 'gateway') required('FLEET_GATEWAY_JOIN_TOKEN', 'the gateway enrols with it');
  if (role === 'agent' && env.CONTROL_URL) required('FLEET_AGENT_JOIN_TOKEN', 'the agent enrols with it');
  if (role === 'agent' && !env.CONTROL_URL) {
    required('FLEET_VERIFY_KEY', 'without CONTROL_URL it cannot be learnt, and orders are checked with it');
  }
}

/** The parts of the fleet's credentials this role holds, derived outside production where none is given. */
export function fleetCredentials(env: TFleetEnv & Pick<TEnv, 'DATA_DIR'>, appSecret: string): TFleetConfig {
  const development = env.NODE_ENV !== 'production';
  const role = env.ROOM_ROLE;
  const controls = role === 'all' || role === 'control';
  const signingKey = !controls
    ? undefined
    : env.FLEET_SIGNING_KEY
      ? parseSigningKey(env.FLEET_SIGNING_KEY)
      : development
        ? developmentSigningKey(appSecret)
        : generatedSigningKey(resolve(env.DATA_DIR));
  const verifyKey = signingKey
    ? createPublicKey(signingKey)
    : env.FLEET_VERIFY_KEY
      ? parseVerifyKey(env.FLEET_VERIFY_KEY)
      : role === 'agent' && !env.CONTROL_URL && development
        ? createPublicKey(developmentSigningKey(appSecret))
        : undefined;
  const joinToken = (of: 'agent' | 'gateway', given: string | undefined) =>
    controls || role === of
      ? (given ?? (development ? developmentJoinToken(appSecret, of) : undefined))
      : undefined;
  return {
    signingKey,
    verifyKey,
    joinTokens: {
      agent: joinToken('agent', env.FLEET_AGENT_JOIN_TOKEN),
      gateway: joinToken('gateway', env.FLEET_GATEWAY_JOIN_TOKEN),
    },
  };
}
