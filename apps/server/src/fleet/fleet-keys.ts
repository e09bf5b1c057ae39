// The fleet's Ed25519 keys as the configuration gives them (FLEET_SIGNING_KEY, FLEET_VERIFY_KEY): PEM, or the bare
// 32 bytes in base64. Outside production a key nobody configured is derived from APP_SECRET, so processes of one
// development install (and the tests') agree with nothing set; production never derives: there every agent and
// gateway holds APP_SECRET, and a signing key derived from it would let each of them order every other agent.
import {
  createHmac,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  hkdfSync,
  type KeyObject,
} from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** DER prefixes of an Ed25519 private key (PKCS#8) and public key (SPKI), to which the 32 bytes are appended. */
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

function bareBytes(text: string): Buffer | null {
  const compact = text.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(compact)) return null;
  const bytes = Buffer.from(compact.replaceAll('+', '-').replaceAll('/', '_'), 'base64url');
  return bytes.length === 32 ? bytes : null;
}

/** FLEET_SIGNING_KEY: a PEM private key, or the 32-byte seed in base64. Throws with what is wrong. */
export function parseSigningKey(text: string): KeyObject {
  const seed = text.includes('-----BEGIN') ? null : bareBytes(text);
  const key = seed
    ? createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' })
    : tryKey(() => createPrivateKey(text));
  if (key?.asymmetricKeyType !== 'ed25519')
    throw new Error('must be an Ed25519 private key (PEM) or its 32-byte seed in base64');
  return key;
}

/** FLEET_VERIFY_KEY: a PEM public key, or its 32 bytes in base64. Throws with what is wrong. */
export function parseVerifyKey(text: string): KeyObject {
  // A private key would be taken for its public half: refused, so that it never sits where only the public belongs.
  if (text.includes('PRIVATE KEY'))
    throw new Error('must be the public key: this is the private one, which only control planes hold');
  const raw = text.includes('-----BEGIN') ? null : bareBytes(text);
  const key = raw ? publicKeyOfBytes(raw) : tryKey(() => createPublicKey(text));
  if (key?.type !== 'public' || key.asymmetricKeyType !== 'ed25519')
    throw new Error('must be an Ed25519 public key (PEM) or its 32 bytes in base64');
  return key;
}

function tryKey(make: () => KeyObject): KeyObject | null {
  try {
    return make();
  } catch {
    return null;
  }
}

export function publicKeyOfBytes(raw: Buffer): KeyObject {
  return createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
}

/** A public key's 32 bytes, base64url: how credentials name their holder's key and enrolment hands out the verify key. */
export function publicKeyText(key: KeyObject): string {
  const der = (key.type === 'public' ? key : createPublicKey(key)).export({ format: 'der', type: 'spki' });
  return der.subarray(der.length - 32).toString('base64url');
}

/** The signing key of a development install, from its APP_SECRET (never in production: see above). */
export function developmentSigningKey(appSecret: string): KeyObject {
  const seed = Buffer.from(hkdfSync('sha256', appSecret, '', 'rooms fleet signing key (development)', 32));
  return createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
}

/** A development install's join token for a role, from its APP_SECRET. */
export function developmentJoinToken(appSecret: string, role: 'agent' | 'gateway'): string {
  return createHmac('sha256', appSecret).update(`rooms fleet join ${role} (development)`).digest('base64url');
}

/**
 * The signing key of a single server in production that was given none: generated once into its data directory,
 * so credentials it issued stay valid across restarts. Its public half, for agents joining it:
 * `openssl pkey -in $DATA_DIR/fleet-signing-key -pubout`.
 */
export function generatedSigningKey(dataDir: string): KeyObject {
  const file = join(dataDir, 'fleet-signing-key');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(dataDir, { recursive: true });
    const { privateKey } = generateKeyPairSync('ed25519');
    writeFileSync(file, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600, flag: 'wx' });
    return privateKey;
  }
  return parseSigningKey(text);
}
