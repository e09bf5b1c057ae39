// Pointing, reactions, voice and knocking through a gateway, as real processes: a control plane, an agent running the
// room's real browser and a gateway. The gateway passes a member's pointer/move, reaction/send and binary voice frames
// on to the agent's hub, and the others' pointer/shown, reaction/shown and voice back, like any other room message;
// the hub's limits hold there. A knock waiting at the agent's hub reaches its owner's app through the control plane
// (the agent's heartbeat reports it; GET /api/room/getKnocks answers with it) until someone answers it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeVoiceFrame, roomSocketPath } from '@rooms/api/room-protocol';
import { createTestDatabase, type TestDatabase } from '@rooms/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RoomClient } from '../testing/room-client';
import { killServerProcesses, startOneAgentFleet } from '../testing/server-processes';
import { storedRoom, storedUser } from '../testing/stored-accounts';

const SECRET = 'gateway-pointing-voice-secret-that-is-long-enough-for-hmac';
const KNOCK = 'knock-token-of-the-gateway-room';

let database: TestDatabase;
let dataDir: string;

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = await mkdtemp(join(tmpdir(), 'rooms-gateway-pointing-voice-'));
}, 60_000);

afterAll(async () => {
  killServerProcesses();
  await database?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** This suite's install: its database, data directory and secret. */
const install = () => ({ databaseUrl: database.url, dataDir, secret: SECRET });

describe('pointing and voice through a gateway', () => {
  it('reach the other members on the agent, and not beyond the limits', async () => {
    const { control, publicUrl, startGateway } = await startOneAgentFleet(install());
    const gateway = await startGateway();
    const owner = await storedUser(database.orm, { prefix: 'point' });
    // Public, so that another account (who hears the voice: a person's own tabs do not) comes in with its session.
    const room = await storedRoom(database.orm, owner.id, {
      startUrl: 'about:blank',
      maxConnections: 5,
      isPublic: true,
    });
    const started = await fetch(`${publicUrl}/api/room/startRoom?id=${room.id}`, {
      method: 'POST',
      headers: { authorization: owner.token },
    });
    expect(((await started.json()) as { data: { state: string } }).data.state).toBe('running');

    // Two seats of the owner's account: the first drives, the second watches and points.
    const seat = async (nickname: string, token = owner.token) => {
      const client = await RoomClient.connect(
        `ws://127.0.0.1:${gateway.port}${roomSocketPath(room.id)}?token=${encodeURIComponent(token)}`,
      );
      client.send({ type: 'member/join', nickname });
      return { client, id: (await client.next('member/list')).you };
    };
    const driver = await seat('Olga');
    const watcher = await seat('Olga');
    expect((await watcher.client.next('control/state')).controllerId).toBe(driver.id);

    watcher.client.send({ type: 'pointer/move', x: 0.3, y: 0.6 });
    expect(await driver.client.next('pointer/shown')).toEqual({
      type: 'pointer/shown',
      memberId: watcher.id,
      nickname: 'Olga',
      x: 0.3,
      y: 0.6,
    });
    watcher.client.send({ type: 'reaction/send', emoji: '👀' });
    expect(await driver.client.next('reaction/shown')).toMatchObject({ memberId: watcher.id, emoji: '👀' });

    // A burst of reactions: the hub behind the gateway refuses the sixth and tells the sender once.
    for (let i = 0; i < 10; i++) watcher.client.send({ type: 'reaction/send', emoji: '👏' });
    const refusal = await watcher.client.next('system/error');
    expect(refusal).toMatchObject({ code: 'RATE_LIMITED', about: 'reaction/send' });
    // Nothing comes back to the sender itself.
    expect(watcher.client.of('pointer/shown')).toEqual([]);
    expect(watcher.client.of('reaction/shown')).toEqual([]);

    // Voice is binary on the same socket: the watcher talks, and another person hears the frame with the watcher's
    // id, which the hub behind the gateway wrote.
    const lena = await seat('Lena', (await storedUser(database.orm, { prefix: 'hear' })).token);
    watcher.client.send({ type: 'voice/talk', talking: true });
    await lena.client.next('voice/state', (state) => state.speaking.includes(watcher.id));
    const data = new Uint8Array(80).fill(5);
    watcher.client.sendBytes(encodeVoiceFrame({ sequence: 1, timestamp: 20, data }));
    await lena.client.until(() => lena.client.voice.length > 0, 'the voice frame', 10_000);
    const [heard] = lena.client.voice;
    expect(heard).toMatchObject({ speaker: watcher.id, sequence: 1 });
    expect(Array.from(heard!.data)).toEqual(Array.from(data));
    expect(watcher.client.voice).toEqual([]);
    lena.client.close();
    watcher.client.close();
    driver.client.close();
    await fetch(`http://127.0.0.1:${control.port}/api/room/stopRoom?id=${room.id}`, {
      method: 'POST',
      headers: { authorization: owner.token },
    });

    // Someone knocks at another room of the owner's (the agent runs one at a time), shared by its knock link alone:
    // the owner's app hears of it from the control plane, not only the owner's seats in the room, and no longer
    // once the owner has answered.
    const door = await storedRoom(database.orm, owner.id, { startUrl: 'about:blank', knockToken: KNOCK });
    const opened = await fetch(`${publicUrl}/api/room/startRoom?id=${door.id}`, {
      method: 'POST',
      headers: { authorization: owner.token },
    });
    expect(((await opened.json()) as { data: { state: string } }).data.state).toBe('running');
    const host = await RoomClient.connect(
      `ws://127.0.0.1:${gateway.port}${roomSocketPath(door.id)}?token=${encodeURIComponent(owner.token)}`,
    );
    host.send({ type: 'member/join', nickname: 'Olga' });
    await host.next('member/list');
    const issued = await fetch(`${publicUrl}/ws/ticket`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ roomId: door.id, knock: KNOCK }),
    });
    expect(issued.status).toBe(200);
    const { ticket } = (await issued.json()) as { ticket: string };
    const knocker = await RoomClient.connect(
      `ws://127.0.0.1:${gateway.port}${roomSocketPath(door.id)}?ticket=${encodeURIComponent(ticket)}`,
      { origin: new URL(publicUrl).origin },
    );
    knocker.send({ type: 'member/join', nickname: 'Kim' });
    await knocker.next('knock/waiting');
    const { knocks } = await host.next('knock/pending', (pending) => pending.knocks.length > 0);
    expect(knocks).toEqual([expect.objectContaining({ nickname: 'Kim', isGuest: true })]);
    const knocksAtTheDoor = async () => {
      const response = await fetch(`${publicUrl}/api/room/getKnocks`, {
        headers: { authorization: owner.token },
      });
      return ((await response.json()) as { data: unknown[] }).data;
    };
    await expect
      .poll(knocksAtTheDoor, { timeout: 15_000 })
      .toEqual([{ roomId: door.id, roomName: door.name, knocks }]);
    host.send({ type: 'knock/answer', knockId: knocks[0]!.id, admit: false });
    await knocker.closedWith();
    await expect.poll(knocksAtTheDoor, { timeout: 15_000 }).toEqual([]);
    host.close();
    await fetch(`${publicUrl}/api/room/stopRoom?id=${door.id}`, {
      method: 'POST',
      headers: { authorization: owner.token },
    });
  }, 180_000);
});
