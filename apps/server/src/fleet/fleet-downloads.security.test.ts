// Who may fetch a room's download in a fleet. A gateway serves the controller's link (fleet/gateway-downloads.ts)
// only for a key signed for that room and that offer, still valid, and otherwise refuses it without calling any
// agent; an agent hands a file out (fleet/agent-downloads.ts) only to a gateway of the install, whose call is signed
// for that very path, and only for a key its room's hub offered. A browser, another install, the control plane or
// another agent gets nothing, nor does a key of one room shown for another.
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DownloadKeys } from '../rooms/hub/download-keys';
import { fleetProcess, tampered } from '../testing/fleet-calls';
import { startTestServer, type TTestServer } from '../testing/test-server';
import { agentDownloadPath, DOWNLOAD_KEY_HEADER } from './agent-downloads';
import { developmentSigningKey } from './fleet-keys';

const AGENT_ADDRESS = '127.0.0.1:9';
const NOT_AVAILABLE =
  'This download is no longer available: it was already saved, it expired, or you are no longer in control of the room';

let agent: TTestServer;
let gateway: TTestServer;

beforeAll(async () => {
  [agent, gateway] = await Promise.all([
    startTestServer({ env: { ROOM_ROLE: 'agent', AGENT_ADDRESS, ROOM_CAPACITY: '1' } }),
    startTestServer({ env: { ROOM_ROLE: 'gateway' } }),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([agent?.close(), gateway?.close()]);
});

/** A key as a room's hub signs it, with the install's secret (every role holds it). */
const keyFor = (roomId: string, downloadId: string, ttlMs = 60_000) =>
  new DownloadKeys(gateway.config.appSecret).issue(roomId, downloadId, Date.now() + ttlMs);

describe('a room gateway', () => {
  it('refuses a download link without a key of that room and offer, before it asks any agent', async () => {
    const roomId = randomUUID();
    const downloadId = randomUUID();
    const fetchLink = (room: string, id: string, key?: string) =>
      gateway.app.inject({
        method: 'GET',
        url: `/ws/room/${room}/downloads/${id}${key === undefined ? '' : `?key=${encodeURIComponent(key)}`}`,
      });
    // Not a link at all: no key, or no offer id.
    expect((await fetchLink(roomId, downloadId)).statusCode).toBe(400);
    expect((await fetchLink(roomId, 'not-an-offer', keyFor(roomId, downloadId))).statusCode).toBe(400);

    const key = keyFor(roomId, downloadId);
    const refused = [
      // Forged, tampered with, expired, signed by another install.
      await fetchLink(roomId, downloadId, 'a.b'),
      await fetchLink(roomId, downloadId, `${key.slice(0, -2)}AA`),
      await fetchLink(roomId, downloadId, keyFor(roomId, downloadId, -1)),
      await fetchLink(
        roomId,
        downloadId,
        new DownloadKeys('another-install-secret-long-enough').issue(roomId, downloadId, Date.now() + 60_000),
      ),
      // One room's key shown for another room, or for another offer of the same room.
      await fetchLink(randomUUID(), downloadId, key),
      await fetchLink(roomId, randomUUID(), key),
      // The right key of a room that runs nowhere: its files went with its run.
      await fetchLink(roomId, downloadId, key),
    ];
    for (const answer of refused) {
      expect(answer.statusCode).toBe(404);
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(answer.json()).toEqual({ msg: 'error', data: NOT_AVAILABLE });
    }
  });
});

describe('a room agent', () => {
  const otherInstall = generateKeyPairSync('ed25519').privateKey;
  const ownKey = () => developmentSigningKey(agent.config.appSecret);

  it('hands a download only to a gateway of the install, signed for that path, with the room’s key', async () => {
    const roomId = randomUUID();
    const downloadId = randomUUID();
    const path = agentDownloadPath(roomId, downloadId);
    const key = keyFor(roomId, downloadId);
    const fetchFile = (headers: Record<string, string>, url = path) =>
      agent.app.inject({ method: 'GET', url, headers });

    // No credential (a browser), another install's, a tampered signature, a call signed for another path.
    const gatewayCall = (signingKey = ownKey(), signedPath = path) =>
      fleetProcess(signingKey, 'gateway').call(AGENT_ADDRESS, 'GET', signedPath);
    for (const authorization of [
      undefined,
      gatewayCall(otherInstall),
      tampered(gatewayCall()),
      gatewayCall(ownKey(), agentDownloadPath(randomUUID(), downloadId)),
    ]) {
      const answer = await fetchFile({
        ...(authorization ? { authorization } : {}),
        [DOWNLOAD_KEY_HEADER]: key,
      });
      expect(answer.statusCode).toBe(401);
      expect(answer.json()).toMatchObject({ code: 'FORBIDDEN' });
    }
    // The install's control plane or another agent: not a gateway.
    for (const role of ['control', 'agent'] as const) {
      const answer = await fetchFile({
        authorization: fleetProcess(ownKey(), role).call(AGENT_ADDRESS, 'GET', path),
        [DOWNLOAD_KEY_HEADER]: key,
      });
      expect(answer.statusCode).toBe(403);
    }

    // A gateway of the install, without the key, with a forged one, another room's, or one for a room not here.
    const own = { authorization: gatewayCall() };
    expect((await fetchFile(own)).statusCode).toBe(400);
    for (const wrong of ['a.b', keyFor(randomUUID(), downloadId), keyFor(roomId, randomUUID()), key]) {
      const answer = await fetchFile({ ...own, [DOWNLOAD_KEY_HEADER]: wrong });
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toEqual({ msg: 'error', data: NOT_AVAILABLE });
    }
  });

  it('serves no download at the browsers’ path', async () => {
    const roomId = randomUUID();
    const downloadId = randomUUID();
    const answer = await agent.app.inject({
      method: 'GET',
      url: `/ws/room/${roomId}/downloads/${downloadId}?key=${encodeURIComponent(keyFor(roomId, downloadId))}`,
    });
    expect(answer.statusCode).toBe(404);
    expect(answer.json()).not.toMatchObject({ msg: 'error', data: NOT_AVAILABLE });
  });
});
