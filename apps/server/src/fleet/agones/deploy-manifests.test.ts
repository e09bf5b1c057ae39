// The deployment under deploy/kubernetes is checked offline by scripts/check-manifests.mjs (part of `npm run lint`):
// every kustomization renders, and every object it renders passes the Kubernetes or Agones schema. These tests
// run the check as CI does, on the repository and on objects broken the way hand-written manifests break.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../../../../', import.meta.url));
const CHECK = join(REPO, 'scripts/check-manifests.mjs');
const dir = mkdtempSync(join(tmpdir(), 'rooms-manifests-'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function check(...args: string[]): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [CHECK, ...args], {
    cwd: REPO,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** YAML documents (JSON is YAML) in a file of their own, checked alone. */
function checkObjects(...objects: object[]): { status: number | null; output: string } {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, objects.map((object) => JSON.stringify(object)).join('\n---\n'));
  return check(file);
}

const probe = (path: string) => ({ httpGet: { path, port: 'http' } });

function deployment(container: Record<string, unknown> = {}, spec: Record<string, unknown> = {}) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'control-plane', namespace: 'rooms' },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'rooms' } },
      template: {
        metadata: { labels: { app: 'rooms' } },
        spec: {
          containers: [
            {
              name: 'control-plane',
              image: 'cloud-browser-rooms/control-plane:1.0.0',
              ports: [{ name: 'http', containerPort: 3000 }],
              livenessProbe: probe('/healthz'),
              readinessProbe: probe('/readyz'),
              ...container,
            },
          ],
        },
      },
      ...spec,
    },
  };
}

function fleet(
  gameServer: Record<string, unknown> = {},
  container: Record<string, unknown> = {},
  region = 'eu-west',
  roomCapacity = '4',
) {
  return {
    apiVersion: 'agones.dev/v1',
    kind: 'Fleet',
    metadata: { name: 'room-agents', namespace: 'rooms-agents' },
    spec: {
      replicas: 2,
      template: {
        metadata: { labels: { 'cloud-browser-rooms/region': 'eu-west' } },
        spec: {
          ports: [{ name: 'agent', portPolicy: 'Dynamic', containerPort: 3000, protocol: 'TCP' }],
          health: { periodSeconds: 10 },
          counters: { rooms: { count: 0, capacity: 4 } },
          template: {
            metadata: { labels: { 'cloud-browser-rooms/region': 'eu-west' } },
            spec: {
              containers: [
                {
                  name: 'agent',
                  image: 'cloud-browser-rooms/agent:1.0.0',
                  env: [
                    { name: 'AGENT_REGIONS', value: region },
                    { name: 'ROOM_CAPACITY', value: roomCapacity },
                  ],
                  ...container,
                },
              ],
            },
          },
          ...gameServer,
        },
      },
    },
  };
}

const autoscaler = (policy: Record<string, unknown>) => ({
  apiVersion: 'autoscaling.agones.dev/v1',
  kind: 'FleetAutoscaler',
  metadata: { name: 'room-agents', namespace: 'rooms-agents' },
  spec: { fleetName: 'room-agents', policy },
});

describe('the Kubernetes manifests check', { timeout: 60_000 }, () => {
  it('renders every kustomization of deploy/kubernetes and finds every object valid', () => {
    const { status, output } = check();
    expect(output).toMatch(/deploy\/kubernetes\/base: \d+ objects valid/);
    expect(output).toMatch(/deploy\/kubernetes\/overlays\/example: \d+ objects valid/);
    expect(output).toMatch(/deploy\/kubernetes\/overlays\/example-sandboxed: \d+ objects valid/);
    expect(status).toBe(0);
  });

  it('passes well-formed objects', () => {
    const { status, output } = checkObjects(
      deployment(),
      fleet(),
      autoscaler({ type: 'Counter', counter: { key: 'rooms', bufferSize: 8, maxCapacity: 400 } }),
      autoscaler({ type: 'Buffer', buffer: { bufferSize: 2, maxReplicas: 10 } }),
    );
    expect(output).toContain('4 objects valid');
    expect(status).toBe(0);
  });

  it('refuses a Kubernetes object with a misspelt field or a wrong type', () => {
    const { status, output } = checkObjects(
      deployment({ livenessProbe: undefined, livenesProbe: probe('/healthz') }, { replicas: 'two' }),
    );
    expect(status).toBe(1);
    expect(output).toContain('spec.replicas: must be integer');
    expect(output).toContain('spec.template.spec.containers[0].livenesProbe: unknown field');
    expect(output).toContain('container control-plane has no livenessProbe');
  });

  it('refuses an Agones Fleet with an unknown port policy, an unknown field or a broken pod template', () => {
    const { status, output } = checkObjects(
      fleet(
        {
          ports: [{ name: 'agent', portPolicy: 'dynamic', containerPort: 3000 }],
          healthCheck: { periodSeconds: 10 },
        },
        { name: undefined, imagePullPolicy: 7 },
      ),
    );
    expect(status).toBe(1);
    expect(output).toContain(
      'spec.template.spec.ports[0].portPolicy: must be equal to one of the allowed values',
    );
    expect(output).toContain('spec.template.spec: must NOT have additional properties (healthCheck)');
    expect(output).toContain(
      'spec.template.spec.template.spec.containers[0]: must have required property name',
    );
    expect(output).toContain(
      'spec.template.spec.template.spec.containers[0].imagePullPolicy: must be string',
    );
  });

  it('refuses a Fleet whose agents register for another region than the one allocations select', () => {
    const { status, output } = checkObjects(fleet({}, {}, 'us-east'));
    expect(status).toBe(1);
    expect(output).toContain('region label eu-west, pod label eu-west, AGENT_REGIONS us-east');
  });

  it('refuses a Fleet whose rooms Counter holds another number of rooms than its agents take', () => {
    const { status, output } = checkObjects(fleet({}, {}, 'eu-west', '6'));
    expect(status).toBe(1);
    expect(output).toContain('rooms Counter capacity 4, ROOM_CAPACITY 6');
  });

  it('refuses a Counter FleetAutoscaler without its key or bounds, and a Counter with a stray field', () => {
    const { status, output } = checkObjects(
      autoscaler({ type: 'Counter', counter: { bufferSize: 8 } }),
      autoscaler({ type: 'Counter' }),
      fleet({ counters: { rooms: { capacity: 4, max: 8 } } }),
    );
    expect(status).toBe(1);
    expect(output).toContain('spec.policy.counter: must have required property key');
    expect(output).toContain('spec.policy.counter: must have required property maxCapacity');
    expect(output).toContain('spec.policy: must have required property counter');
    expect(output).toContain('spec.template.spec.counters.rooms: must NOT have additional properties (max)');
  });

  it('gives each role its own fleet credentials, and the signing key to the control plane only', () => {
    const role = (name: string) => ({ name: 'ROOM_ROLE', value: name });
    const secrets = (...names: string[]) => names.map((name) => ({ secretRef: { name } }));
    const { status, output } = checkObjects(
      deployment({ env: [role('control')], envFrom: secrets('rooms-secrets', 'rooms-fleet-control') }),
      deployment({ name: 'gateway', env: [role('gateway')], envFrom: secrets('rooms-fleet-control') }),
      fleet(
        {},
        {
          env: [
            role('agent'),
            { name: 'AGENT_REGIONS', value: 'eu-west' },
            { name: 'ROOM_CAPACITY', value: '4' },
            { name: 'FLEET_SIGNING_KEY', valueFrom: { secretKeyRef: { name: 'keys', key: 'signing' } } },
          ],
          envFrom: secrets('rooms-fleet-agent', 'rooms-fleet-gateway'),
        },
      ),
    );
    expect(status).toBe(1);
    expect(output).not.toContain('container control-plane (ROOM_ROLE=control)');
    expect(output).toContain(
      'container gateway (ROOM_ROLE=gateway) gets no secret rooms-fleet-gateway: without its fleet credentials it does not start',
    );
    expect(output).toContain(
      'container gateway (ROOM_ROLE=gateway) gets rooms-fleet-control, another role’s fleet credentials',
    );
    expect(output).toContain('container agent (ROOM_ROLE=agent) gets rooms-fleet-gateway, another role’s');
    expect(output).toContain('container agent (ROOM_ROLE=agent) is given FLEET_SIGNING_KEY');
  });

  it('refuses a Buffer FleetAutoscaler without its buffer, and kinds it has no schema for', () => {
    const { status, output } = checkObjects(autoscaler({ type: 'Buffer' }), {
      apiVersion: 'agones.dev/v1',
      kind: 'GameServerSet',
      metadata: { name: 'room-agents-x' },
    });
    expect(status).toBe(1);
    expect(output).toContain('spec.policy: must have required property buffer');
    expect(output).toContain('agones.dev/v1 GameServerSet: no schema');
  });
});
