import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseEnv } from './env';

const base = { APP_SECRET: 'x'.repeat(40), DATA_DIR: '/tmp/rooms-env-test' };

const fleetKeys = generateKeyPairSync('ed25519');
const SIGNING_KEY = fleetKeys.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
const VERIFY_KEY = fleetKeys.publicKey.export({ format: 'pem', type: 'spki' }).toString();
const AGENT_JOIN = 'a'.repeat(40);
const GATEWAY_JOIN = 'g'.repeat(40);

describe('parseEnv', () => {
  it('defaults to port 3000, the embedded database and the self-hosted captcha', () => {
    const config = parseEnv(base);
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.smtpUrl).toBeUndefined();
    expect(config.captcha.provider).toBe('self-hosted');
    expect(config.publicUrl).toBe('http://localhost:3000');
  });

  it('points share links at SHARE_URL, or at the public address when it is unset', () => {
    expect(parseEnv({ ...base, PUBLIC_URL: 'https://rooms.example/' }).shareUrl).toBe(
      'https://rooms.example',
    );
    expect(
      parseEnv({ ...base, PUBLIC_URL: 'https://rooms.example', SHARE_URL: 'https://share.example/' })
        .shareUrl,
    ).toBe('https://share.example');
    expect(() => parseEnv({ ...base, SHARE_URL: 'not a url' })).toThrowError(/SHARE_URL/);
  });

  it('gives the support address only when SUPPORT_EMAIL names one', () => {
    expect(parseEnv(base).supportEmail).toBeUndefined();
    expect(parseEnv({ ...base, SUPPORT_EMAIL: ' help@rooms.example ' }).supportEmail).toBe(
      'help@rooms.example',
    );
    expect(() => parseEnv({ ...base, SUPPORT_EMAIL: 'not an address' })).toThrowError(/SUPPORT_EMAIL/);
  });

  it('believes X-Forwarded-For only from the configured number of proxies', () => {
    expect(parseEnv(base).trustProxy).toBe(0);
    expect(parseEnv({ ...base, TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(parseEnv({ ...base, TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(() => parseEnv({ ...base, TRUST_PROXY: 'yes' })).toThrowError(/TRUST_PROXY/);
  });

  it('names every bad variable', () => {
    expect(() => parseEnv({ ...base, PORT: 'eighty', DATABASE_URL: 'mysql://x' })).toThrowError(ConfigError);
    try {
      parseEnv({ ...base, PORT: 'eighty', DATABASE_URL: 'mysql://x' });
    } catch (error) {
      expect((error as Error).message).toContain('PORT');
      expect((error as Error).message).toContain('DATABASE_URL: must be a postgres:// URL');
    }
  });

  it('refuses a production start without SMTP_URL', () => {
    expect(() => parseEnv({ ...base, NODE_ENV: 'production' })).toThrowError(
      /SMTP_URL: is required in production/,
    );
    expect(
      parseEnv({ ...base, NODE_ENV: 'production', SMTP_URL: 'smtp://mail.example.com:587' }).smtpUrl,
    ).toBe('smtp://mail.example.com:587');
  });

  it('asks the mail server of the roles that send mail only: a room agent or a gateway need not hold it', () => {
    const fleet = { ...base, NODE_ENV: 'production', DATABASE_URL: 'postgres://db/rooms' };
    expect(() => parseEnv({ ...fleet, ROOM_ROLE: 'control' })).toThrowError(/SMTP_URL: is required/);
    expect(
      parseEnv({ ...fleet, ROOM_ROLE: 'gateway', FLEET_GATEWAY_JOIN_TOKEN: GATEWAY_JOIN }).smtpUrl,
    ).toBeUndefined();
    expect(
      parseEnv({ ...fleet, ROOM_ROLE: 'agent', AGENT_ADDRESS: '10.0.0.7:3000', FLEET_VERIFY_KEY: VERIFY_KEY })
        .smtpUrl,
    ).toBeUndefined();
  });

  it('gives each role of a fleet only its part of the fleet’s credentials, and derives none in production', () => {
    const production = {
      ...base,
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://db/rooms',
      SMTP_URL: 'smtp://mail.example.com:587',
    };
    const control = {
      ...production,
      ROOM_ROLE: 'control',
      FLEET_SIGNING_KEY: SIGNING_KEY,
      FLEET_AGENT_JOIN_TOKEN: AGENT_JOIN,
      FLEET_GATEWAY_JOIN_TOKEN: GATEWAY_JOIN,
    };
    const fleet = parseEnv(control).fleet;
    expect(fleet.signingKey?.asymmetricKeyType).toBe('ed25519');
    expect(fleet.verifyKey?.export({ format: 'pem', type: 'spki' })).toBe(VERIFY_KEY);
    expect(fleet.joinTokens).toEqual({ agent: AGENT_JOIN, gateway: GATEWAY_JOIN });
    for (const name of ['FLEET_SIGNING_KEY', 'FLEET_AGENT_JOIN_TOKEN', 'FLEET_GATEWAY_JOIN_TOKEN']) {
      expect(() => parseEnv({ ...control, [name]: '' }), name).toThrowError(
        new RegExp(`${name}: is required when ROOM_ROLE=control in production`),
      );
    }
    // An agent: the verify key and its join token, never the signing key or the gateways' token.
    const agent = { ...production, ROOM_ROLE: 'agent', AGENT_ADDRESS: '10.0.0.7:3000' };
    expect(() => parseEnv(agent)).toThrowError(/FLEET_VERIFY_KEY: is required when ROOM_ROLE=agent/);
    expect(() => parseEnv({ ...agent, CONTROL_URL: 'http://control' })).toThrowError(
      /FLEET_AGENT_JOIN_TOKEN: is required when ROOM_ROLE=agent/,
    );
    expect(parseEnv({ ...agent, FLEET_VERIFY_KEY: VERIFY_KEY }).fleet).toMatchObject({
      signingKey: undefined,
      joinTokens: { agent: undefined, gateway: undefined },
    });
    expect(() =>
      parseEnv({ ...agent, FLEET_VERIFY_KEY: VERIFY_KEY, FLEET_SIGNING_KEY: SIGNING_KEY }),
    ).toThrowError(/FLEET_SIGNING_KEY: must not be given to ROOM_ROLE=agent/);
    expect(() =>
      parseEnv({ ...agent, FLEET_VERIFY_KEY: VERIFY_KEY, FLEET_GATEWAY_JOIN_TOKEN: GATEWAY_JOIN }),
    ).toThrowError(/FLEET_GATEWAY_JOIN_TOKEN: must not be given to an agent/);
    // The private key where the public one belongs is refused, not quietly taken for its public half.
    expect(() => parseEnv({ ...agent, FLEET_VERIFY_KEY: SIGNING_KEY })).toThrowError(
      /FLEET_VERIFY_KEY: must be the public key/,
    );
    const gateway = { ...production, ROOM_ROLE: 'gateway' };
    expect(() => parseEnv(gateway)).toThrowError(/FLEET_GATEWAY_JOIN_TOKEN: is required/);
    expect(() =>
      parseEnv({ ...gateway, FLEET_GATEWAY_JOIN_TOKEN: GATEWAY_JOIN, FLEET_AGENT_JOIN_TOKEN: AGENT_JOIN }),
    ).toThrowError(/FLEET_AGENT_JOIN_TOKEN: must not be given to a gateway/);
  });

  it('takes the fleet’s keys as PEM or as their 32 bytes in base64, and says what is wrong with others', () => {
    const seed = Buffer.from(SIGNING_KEY.split('\n').slice(1, -2).join(''), 'base64').subarray(-32);
    const fromSeed = parseEnv({ ...base, FLEET_SIGNING_KEY: seed.toString('base64') }).fleet;
    expect(fromSeed.verifyKey?.export({ format: 'pem', type: 'spki' })).toBe(VERIFY_KEY);
    const rawPublic = Buffer.from(VERIFY_KEY.split('\n').slice(1, -2).join(''), 'base64').subarray(-32);
    const agent = {
      ...base,
      ROOM_ROLE: 'agent',
      AGENT_ADDRESS: '10.0.0.7:3000',
      DATABASE_URL: 'postgres://db',
    };
    expect(
      parseEnv({ ...agent, FLEET_VERIFY_KEY: rawPublic.toString('base64url') }).fleet.verifyKey?.export({
        format: 'pem',
        type: 'spki',
      }),
    ).toBe(VERIFY_KEY);
    expect(() => parseEnv({ ...base, FLEET_SIGNING_KEY: 'not a key' })).toThrowError(
      /FLEET_SIGNING_KEY: must be an Ed25519 private key/,
    );
    expect(() => parseEnv({ ...agent, FLEET_VERIFY_KEY: 'c2hvcnQ=' })).toThrowError(
      /FLEET_VERIFY_KEY: must be an Ed25519 public key/,
    );
    // Outside production nothing needs setting: processes of one install derive the same keys from APP_SECRET.
    expect(parseEnv(agent).fleet.verifyKey?.export({ format: 'pem', type: 'spki' })).toBe(
      parseEnv(base).fleet.verifyKey?.export({ format: 'pem', type: 'spki' }),
    );
  });

  it('needs GeeTest credentials when GeeTest is the provider', () => {
    expect(() => parseEnv({ ...base, CAPTCHA_PROVIDER: 'geetest' })).toThrowError(
      /GEETEST_ID.*\n.*GEETEST_KEY/s,
    );
    expect(() => parseEnv({ ...base, CAPTCHA_PROVIDER: 'recaptcha' })).toThrowError(/CAPTCHA_PROVIDER/);
  });

  it("sets the self-hosted captcha's difficulty from CAPTCHA_MAX_NUMBER, a positive whole number", () => {
    expect(parseEnv(base).captcha.maxNumber).toBeUndefined();
    expect(parseEnv({ ...base, CAPTCHA_MAX_NUMBER: '200000' }).captcha.maxNumber).toBe(200_000);
    for (const bad of ['0', '-5', '1.5', 'hard'])
      expect(() => parseEnv({ ...base, CAPTCHA_MAX_NUMBER: bad })).toThrowError(/CAPTCHA_MAX_NUMBER/);
  });

  it("takes an agent's address as host:port, an IPv6 one in brackets", () => {
    const agent = { ...base, ROOM_ROLE: 'agent', DATABASE_URL: 'postgres://db/rooms' };
    expect(parseEnv({ ...agent, AGENT_ADDRESS: '10.0.0.7:3000' }).agent.address).toBe('10.0.0.7:3000');
    expect(parseEnv({ ...agent, AGENT_ADDRESS: 'agent-0.rooms:3000' }).agent.address).toBe(
      'agent-0.rooms:3000',
    );
    expect(parseEnv({ ...agent, AGENT_ADDRESS: '[fd00::7]:3000' }).agent.address).toBe('[fd00::7]:3000');
    for (const bad of ['fd00::7:3000', '10.0.0.7', '[fd00::7]', 'http://10.0.0.7:3000', '10.0.0.7:70000']) {
      expect(() => parseEnv({ ...agent, AGENT_ADDRESS: bad }), bad).toThrowError(/AGENT_ADDRESS/);
    }
  });

  it('keeps warm browsers by the room capacity unless ROOM_WARM_POOL says how many', () => {
    const pool = (env: Record<string, string>) => parseEnv({ ...base, ...env }).rooms.warmPool;
    expect(pool({ ROOM_CAPACITY: '1' })).toBe(1);
    expect(pool({ ROOM_CAPACITY: '4' })).toBe(1);
    expect(pool({ ROOM_CAPACITY: '5' })).toBe(2);
    expect(pool({ ROOM_CAPACITY: '12' })).toBe(3);
    expect(pool({ ROOM_CAPACITY: '64' })).toBe(4);
    expect(pool({ ROOM_CAPACITY: '12', ROOM_WARM_POOL: '0' })).toBe(0);
    expect(pool({ ROOM_CAPACITY: '12', ROOM_WARM_POOL: '' })).toBe(3);
    expect(() => pool({ ROOM_WARM_POOL: 'many' })).toThrowError(/ROOM_WARM_POOL/);
  });

  it('treats empty variables as unset', () => {
    expect(parseEnv({ ...base, DATABASE_URL: '', SMTP_URL: ' ' }).databaseUrl).toBeUndefined();
  });

  it('serves HTTPS from certificate files or ACME, on 443 by default with ACME, and refuses a half setting', () => {
    const files = parseEnv({
      ...base,
      TLS_CERT_FILE: '/etc/rooms/cert.pem',
      TLS_KEY_FILE: '/etc/rooms/key.pem',
    });
    expect(files.tls).toEqual({
      kind: 'files',
      certFile: '/etc/rooms/cert.pem',
      keyFile: '/etc/rooms/key.pem',
      httpPort: undefined,
    });
    expect(files.publicUrl).toBe('https://localhost:3000');
    const acme = parseEnv({ ...base, ACME_DOMAINS: 'Rooms.Example.com, www.rooms.example.com' });
    expect(acme.port).toBe(443);
    expect(acme.publicUrl).toBe('https://rooms.example.com');
    expect(acme.tls).toMatchObject({
      kind: 'acme',
      domains: ['rooms.example.com', 'www.rooms.example.com'],
      httpPort: 80,
      stateDir: '/tmp/rooms-env-test/acme',
    });
    expect(parseEnv(base).tls).toBeNull();
    expect(() => parseEnv({ ...base, TLS_CERT_FILE: '/etc/rooms/cert.pem' })).toThrowError(/TLS_KEY_FILE/);
    expect(() =>
      parseEnv({ ...base, TLS_CERT_FILE: '/a', TLS_KEY_FILE: '/b', ACME_DOMAINS: 'rooms.example.com' }),
    ).toThrowError(/ACME_DOMAINS: cannot be used with TLS_CERT_FILE/);
    expect(() => parseEnv({ ...base, ACME_DOMAINS: '203.0.113.5' })).toThrowError(/not a domain name/);
    expect(() => parseEnv({ ...base, HTTP_PORT: '80' })).toThrowError(/HTTP_PORT/);
    expect(() => parseEnv({ ...base, ACME_EMAIL: 'ops@example.com' })).toThrowError(/without ACME_DOMAINS/);
  });
});
