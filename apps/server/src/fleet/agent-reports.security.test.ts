// A report that an agent is unreachable makes the control plane lose the agent and restart its rooms at once, so it
// is heard only from the install's own gateways (their credentials), and it decides nothing by itself: the control
// plane probes the agent where it registered, and an agent that answers keeps its rooms.
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { EntityManager } from '@mikro-orm/postgresql';
import { fleet } from '@rooms/api';
import { freePort, LOCAL_REGION_CODE } from '@rooms/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fleetProcess, tampered } from '../testing/fleet-calls';
import { storedRoom, storedUser } from '../testing/stored-accounts';
import { startTestServer, type TTestServer } from '../testing/test-server';
import { agentReportPath } from './agent-reports';

let control: TTestServer;
/** An agent that answers: its health check, and the control plane's orders to start a room. */
let answering: Server;
let answeringAddress: string;
/** Connections it accepts and never answers: a frozen agent. */
let frozen: Server;
let frozenAddress: string;
let ownerId: string;

const em = () => control.app.orm.em.fork() as unknown as EntityManager;

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('no port');
  return `127.0.0.1:${address.port}`;
}

beforeAll(async () => {
  control = await startTestServer({ listen: false, env: { ROOM_ROLE: 'control' } });
  answering = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(request.url === '/fleet/runs' ? { state: 'running' } : { status: 'ok' }));
  });
  answeringAddress = await listen(answering);
  frozen = createServer(() => {});
  frozenAddress = await listen(frozen);
  ownerId = (await storedUser(control.app.orm, { prefix: 'reports' })).id;
}, 60_000);

afterAll(async () => {
  await control?.close();
  answering?.closeAllConnections();
  frozen?.closeAllConnections();
  await Promise.all([answering, frozen].map((server) => new Promise((resolve) => server?.close(resolve))));
});

/** An agent registered at `address` with a room running on it. */
async function agentWithRoom(address: string): Promise<{ agentId: string; roomId: string; run: fleet.TRun }> {
  const { agent } = await fleet.registerAgent(
    em(),
    { regionCode: LOCAL_REGION_CODE, address, capacity: 4, version: 'test' },
    new Date(),
  );
  const room = await storedRoom(control.app.orm, ownerId, { startUrl: 'about:blank' });
  const { run } = await fleet.placeRun(em(), room.id, new Date(), [agent.id]);
  await fleet.markRunRunning(em(), run.id, run.epoch, new Date());
  return { agentId: agent.id, roomId: room.id, run };
}

/** A report of `agentId`, by a gateway of this install unless `authorization` says otherwise. */
function report(agentId: string, authorization: string | null = gatewayCall(agentId)) {
  return control.app.inject({
    method: 'POST',
    url: agentReportPath(agentId),
    headers: authorization ? { authorization } : {},
  });
}

const gatewayCall = (agentId: string) =>
  fleetProcess(control.config.fleet.signingKey!, 'gateway').call('control', 'POST', agentReportPath(agentId));

describe('an agent reported unreachable', () => {
  it('is heard only from the install’s own processes', async () => {
    const gone = await agentWithRoom(`127.0.0.1:${await freePort()}`);
    const otherInstall = generateKeyPairSync('ed25519').privateKey;
    const other = fleetProcess(otherInstall, 'gateway').call(
      'control',
      'POST',
      agentReportPath(gone.agentId),
    );
    for (const authorization of [null, other, tampered(gatewayCall(gone.agentId))]) {
      const answer = await report(gone.agentId, authorization);
      expect(answer.statusCode).toBe(401);
    }
    expect((await fleet.agentById(em(), gone.agentId))?.state).toBe('active');
    expect((await fleet.liveRunOf(em(), gone.roomId))?.id).toBe(gone.run.id);
    // Out of the way of the next tests' restarts.
    await fleet.retireAgent(em(), gone.agentId, new Date());
  });

  it('keeps its rooms while it answers the probe', async () => {
    const alive = await agentWithRoom(answeringAddress);
    const answer = await report(alive.agentId);
    expect(answer.json()).toEqual({ lost: false });
    expect((await fleet.agentById(em(), alive.agentId))?.state).toBe('active');
    expect((await fleet.liveRunOf(em(), alive.roomId))?.id).toBe(alive.run.id);
  });

  it('is lost at once when nothing answers at its address, or it does not answer in time, and its room starts again', async () => {
    for (const address of [`127.0.0.1:${await freePort()}`, frozenAddress]) {
      const gone = await agentWithRoom(address);
      // Reports of every gateway at once share one probe.
      const answers = await Promise.all([1, 2, 3].map(() => report(gone.agentId)));
      expect(answers.map((answer) => answer.json())).toEqual([
        { lost: true },
        { lost: true },
        { lost: true },
      ]);
      expect((await fleet.agentById(em(), gone.agentId))?.state).toBe('lost');
      // Started again on the agent that answers, as a new run of the room.
      await expect
        .poll(async () => fleet.liveRunOf(em(), gone.roomId))
        .toMatchObject({ epoch: gone.run.epoch + 1 });
      // Once lost, a report changes nothing more.
      expect((await report(gone.agentId)).json()).toEqual({ lost: false });
    }
  });

  it('names an agent, never an address: an unknown agent is not probed', async () => {
    expect((await report('not-an-agent')).json()).toEqual({ lost: false });
    expect((await report('00000000-0000-4000-8000-000000000000')).json()).toEqual({
      lost: false,
    });
  });
});
