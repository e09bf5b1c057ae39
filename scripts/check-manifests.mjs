// The Kubernetes deployment (deploy/kubernetes), checked offline on every `npm run lint`: each kustomization (the
// base and every overlay) is rendered with kustomize, and each rendered object is validated against its schema:
//   - Kubernetes kinds against the Kubernetes OpenAPI schemas (kubernetes-models' validators), and field names
//     against the API's own type tables (@kubernetes/client-node's models), so a misspelt field fails as it would
//     under kubectl's strict field validation instead of being dropped by the API server;
//   - Agones kinds against deploy/kubernetes/schemas/agones.schema.json (no package ships Agones' CRD schemas),
//     with the GameServers' pod template and all metadata checked as Kubernetes objects.
// Then a few rules of this deployment: every Deployment has probes, a Fleet's region label matches the
// AGENT_REGIONS its agents register for, and its GameServers' `rooms` Counter holds as many rooms as its agents
// take (ROOM_CAPACITY): allocations and the autoscaler count the one, the agent refuses beyond the other; and each
// role gets its own fleet credentials' Secret and no other's (the signing key is the control plane's alone).
//
//   node scripts/check-manifests.mjs               render and check deploy/kubernetes
//   node scripts/check-manifests.mjs FILE.yaml...  check objects in YAML files instead (tests feed broken ones)
// Exits 1 with every problem listed.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as k8s from '@kubernetes/client-node';
import Ajv from 'ajv';
import { parseAllDocuments } from 'yaml';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const deployDir = join(root, 'deploy/kubernetes');
const require = createRequire(import.meta.url);

/** Every directory under deploy/kubernetes holding a kustomization that is not a component. */
function kustomizations(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const path = join(dir, entry.name);
    const file = join(path, 'kustomization.yaml');
    if (existsSync(file) && !/^kind:\s*Component\s*$/m.test(readFileSync(file, 'utf8'))) found.push(path);
    found.push(...kustomizations(path));
  }
  return found.sort();
}

function render(dir) {
  // The kustomize package's own launcher finds the binary of this platform among its optional dependencies.
  const launcher = require.resolve('kustomize/run.js');
  const result = spawnSync(process.execPath, [launcher, 'build', dir], {
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  if (result.status !== 0)
    throw new Error(`kustomize build ${relative(root, dir)} failed:\n${result.stderr}`);
  return result.stdout;
}

function parseObjects(text, source) {
  const objects = [];
  for (const document of parseAllDocuments(text)) {
    if (document.errors.length > 0) {
      throw new Error(`${source}: ${document.errors.map((error) => error.message).join('; ')}`);
    }
    const value = document.toJS();
    if (value !== null && value !== undefined) objects.push(value);
  }
  return objects;
}

// --- Strict field names, from the Kubernetes client's type tables --------------------------------------------

const models = k8s;

/** The client's model for a Kubernetes kind: apps/v1 Deployment → V1Deployment. */
function modelName(apiVersion, kind) {
  const version = apiVersion.split('/').pop();
  return `${version.charAt(0).toUpperCase()}${version.slice(1)}${kind}`;
}

/** Fields the API server would drop or refuse as unknown, walking the object along the client's type tables. */
function unknownFields(value, type, path, problems) {
  if (value === null || value === undefined) return;
  const array = /^Array<(.+)>$/.exec(type);
  if (array) {
    if (!Array.isArray(value)) return;
    for (const [index, item] of value.entries()) unknownFields(item, array[1], `${path}[${index}]`, problems);
    return;
  }
  const map = /^\{ \[key: string\]: (.+); \}$/.exec(type);
  if (map) {
    if (typeof value === 'object') {
      for (const [key, item] of Object.entries(value))
        unknownFields(item, map[1], `${path}.${key}`, problems);
    }
    return;
  }
  const model = models[type];
  if (typeof model?.getAttributeTypeMap !== 'function' || typeof value !== 'object' || Array.isArray(value))
    return;
  const attributes = new Map(
    model.getAttributeTypeMap().map((attribute) => [attribute.baseName, attribute.type]),
  );
  for (const [key, item] of Object.entries(value)) {
    const itemType = attributes.get(key);
    if (itemType === undefined) problems.push(`${path}.${key}: unknown field (not in ${type})`);
    else unknownFields(item, itemType, `${path}.${key}`, problems);
  }
}

// --- Schemas ------------------------------------------------------------------------------------------------

async function kubernetesValidator(apiVersion, kind) {
  try {
    const module = await import(`kubernetes-models/${apiVersion}/${kind}`);
    return module[kind];
  } catch {
    return undefined;
  }
}

const { validate: validatePodTemplate } = await import(
  'kubernetes-models/_schemas/IoK8sApiCoreV1PodTemplateSpec'
);
const { validate: validateObjectMeta } = await import(
  '@kubernetes-models/apimachinery/_schemas/IoK8sApimachineryPkgApisMetaV1ObjectMeta'
);

const agonesSchema = JSON.parse(readFileSync(join(deployDir, 'schemas/agones.schema.json'), 'utf8'));
const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false });
ajv.addSchema(agonesSchema, 'agones');
const agonesKinds = {
  'agones.dev/v1 Fleet': ajv.getSchema('agones#/definitions/Fleet'),
  'autoscaling.agones.dev/v1 FleetAutoscaler': ajv.getSchema('agones#/definitions/FleetAutoscaler'),
};

/** Ajv's errors as `path: message (detail)`, the path dotted from the object's root. */
function describeErrors(errors, prefix) {
  return (errors ?? []).map((error) => {
    const pointer = error.instancePath.replace(/\/(\d+)(?=\/|$)/g, '[$1]').replaceAll('/', '.');
    const path = `${prefix}${pointer}`.replace(/^\./, '');
    const { additionalProperty, allowedValues, missingProperty, type } = error.params ?? {};
    // kubernetes-models' compiled validators carry no messages: they are made from the keyword and its params.
    const message = missingProperty
      ? `must have required property ${missingProperty}`
      : (error.message ??
        (error.keyword === 'type'
          ? `must be ${type}`
          : error.keyword === 'enum'
            ? 'must be equal to one of the allowed values'
            : `fails ${error.keyword}`));
    const detail = additionalProperty ?? allowedValues?.join(', ');
    return `${path || '(object)'}: ${message}${detail ? ` (${detail})` : ''}`;
  });
}

function checkMetadata(metadata, path, problems) {
  if (metadata === undefined) return;
  if (!validateObjectMeta(metadata)) problems.push(...describeErrors(validateObjectMeta.errors, path));
  unknownFields(metadata, 'V1ObjectMeta', path, problems);
}

/** Problems of one object, each prefixed with where it is. */
async function checkObject(object) {
  const problems = [];
  if (typeof object !== 'object' || Array.isArray(object)) return ['not an object'];
  const { apiVersion, kind } = object;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return ['apiVersion and kind are required'];
  if (!object.metadata?.name) problems.push('metadata.name: required');

  const agones = agonesKinds[`${apiVersion} ${kind}`];
  if (agones) {
    if (!agones(object)) problems.push(...describeErrors(agones.errors, ''));
    checkMetadata(object.metadata, 'metadata', problems);
    if (kind === 'Fleet') {
      const gameServer = object.spec?.template;
      checkMetadata(gameServer?.metadata, 'spec.template.metadata', problems);
      const pod = gameServer?.spec?.template;
      if (pod !== undefined) {
        if (!validatePodTemplate(pod))
          problems.push(...describeErrors(validatePodTemplate.errors, 'spec.template.spec.template'));
        unknownFields(pod, 'V1PodTemplateSpec', 'spec.template.spec.template', problems);
      }
    }
    return problems;
  }
  if (/\.agones\.dev\//.test(apiVersion) || apiVersion.startsWith('agones.dev/')) {
    return [`${apiVersion} ${kind}: no schema in deploy/kubernetes/schemas/agones.schema.json; add one`];
  }

  const Model = await kubernetesValidator(apiVersion, kind);
  if (!Model) return [`${apiVersion} ${kind}: not a Kubernetes kind this checker knows`];
  try {
    new Model(object).validate();
  } catch (error) {
    problems.push(...(error.errors ? describeErrors(error.errors, '') : [error.message]));
  }
  const typeName = modelName(apiVersion, kind);
  if (typeof models[typeName]?.getAttributeTypeMap !== 'function') {
    problems.push(`${apiVersion} ${kind}: no field table (${typeName}) to check field names against`);
  } else {
    unknownFields(object, typeName, '', problems);
  }
  return problems.map((problem) => problem.replace(/^\./, ''));
}

// --- This deployment's own rules ------------------------------------------------------------------------------

/** The Secret of each role's fleet credentials (README, "Fleet credentials"): the signing key is the control plane's. */
const FLEET_SECRETS = {
  control: 'rooms-fleet-control',
  gateway: 'rooms-fleet-gateway',
  agent: 'rooms-fleet-agent',
};

/** Each container of the server gets its own role's fleet credentials and no other role's. */
function fleetCredentialRules(where, containers) {
  const problems = [];
  for (const container of containers) {
    const env = container.env ?? [];
    const role = env.find((variable) => variable.name === 'ROOM_ROLE')?.value;
    if (!(role in FLEET_SECRETS)) continue;
    const secrets = new Set([
      ...(container.envFrom ?? []).flatMap((source) => (source.secretRef ? [source.secretRef.name] : [])),
      ...env.flatMap((variable) => {
        const name = variable.valueFrom?.secretKeyRef?.name;
        return name ? [name] : [];
      }),
    ]);
    const what = `${where}: container ${container.name} (ROOM_ROLE=${role})`;
    if (!secrets.has(FLEET_SECRETS[role])) {
      problems.push(
        `${what} gets no secret ${FLEET_SECRETS[role]}: without its fleet credentials it does not start`,
      );
    }
    for (const [other, secret] of Object.entries(FLEET_SECRETS)) {
      if (other !== role && secrets.has(secret)) {
        problems.push(`${what} gets ${secret}, another role’s fleet credentials: it could act as a ${other}`);
      }
    }
    if (role !== 'control' && env.some((variable) => variable.name === 'FLEET_SIGNING_KEY')) {
      problems.push(`${what} is given FLEET_SIGNING_KEY: whoever holds it can order every agent`);
    }
  }
  return problems;
}

function deploymentRules(objects) {
  const problems = [];
  for (const object of objects) {
    const where = `${object.kind} ${object.metadata?.namespace ?? ''}/${object.metadata?.name}`;
    if (object.kind === 'Deployment') {
      problems.push(...fleetCredentialRules(where, object.spec?.template?.spec?.containers ?? []));
    }
    if (object.kind === 'Fleet') {
      problems.push(
        ...fleetCredentialRules(where, object.spec?.template?.spec?.template?.spec?.containers ?? []),
      );
    }
    if (object.kind === 'Deployment') {
      for (const container of object.spec?.template?.spec?.containers ?? []) {
        for (const probe of ['readinessProbe', 'livenessProbe']) {
          if (!container[probe]) problems.push(`${where}: container ${container.name} has no ${probe}`);
        }
      }
    }
    if (object.kind === 'Fleet') {
      const region = object.spec?.template?.metadata?.labels?.['cloud-browser-rooms/region'];
      const podRegion =
        object.spec?.template?.spec?.template?.metadata?.labels?.['cloud-browser-rooms/region'];
      const containers = object.spec?.template?.spec?.template?.spec?.containers ?? [];
      const agentRegions = containers
        .flatMap((container) => container.env ?? [])
        .find((variable) => variable.name === 'AGENT_REGIONS')?.value;
      if (!region) problems.push(`${where}: the GameServers carry no cloud-browser-rooms/region label`);
      else if (agentRegions !== region || podRegion !== region) {
        problems.push(
          `${where}: region label ${region}, pod label ${podRegion}, AGENT_REGIONS ${agentRegions}: allocations select on the label, agents register for AGENT_REGIONS`,
        );
      }
      const slots = object.spec?.template?.spec?.counters?.rooms?.capacity;
      const roomCapacity = containers
        .flatMap((container) => container.env ?? [])
        .find((variable) => variable.name === 'ROOM_CAPACITY')?.value;
      if (slots === undefined)
        problems.push(`${where}: the GameServers have no rooms Counter with a capacity`);
      else if (String(slots) !== roomCapacity) {
        problems.push(
          `${where}: rooms Counter capacity ${slots}, ROOM_CAPACITY ${roomCapacity}: allocations count the one, agents take the other`,
        );
      }
    }
  }
  return problems;
}

// --- Command line ---------------------------------------------------------------------------------------------

async function checkAll(sets) {
  let failures = 0;
  for (const { source, objects } of sets) {
    const problems = [];
    for (const object of objects) {
      const where = `${object?.kind ?? '?'} ${object?.metadata?.namespace ?? ''}/${object?.metadata?.name ?? '?'}`;
      for (const problem of await checkObject(object)) problems.push(`${where}: ${problem}`);
    }
    problems.push(...deploymentRules(objects));
    if (problems.length > 0) {
      failures += problems.length;
      console.error(`${source}: ${problems.length} problem(s)`);
      for (const problem of problems) console.error(`  ${problem}`);
    } else {
      console.log(`${source}: ${objects.length} objects valid`);
    }
  }
  return failures;
}

const files = process.argv.slice(2);
try {
  const sets = files.length
    ? files.map((file) => ({ source: file, objects: parseObjects(readFileSync(file, 'utf8'), file) }))
    : kustomizations(deployDir).map((dir) => ({
        source: relative(root, dir),
        objects: parseObjects(render(dir), relative(root, dir)),
      }));
  if (sets.length === 0) throw new Error('no kustomization found under deploy/kubernetes');
  process.exitCode = (await checkAll(sets)) > 0 ? 1 : 0;
} catch (error) {
  console.error(error.message);
  process.exitCode = 1;
}
