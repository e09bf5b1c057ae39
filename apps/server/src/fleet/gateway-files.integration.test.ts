// A room's download through a gateway, as real processes: a control plane, an agent running the room's real browser,
// and a gateway. The room's Chromium downloads a file from a page served on loopback (allowed through the egress
// proxy); the agent's hub offers it to the controller over the socket the gateway forwards, and the controller's
// browser fetches it from the gateway at the link's path, which fetches it from the agent with its own signed call.
// Wrong keys, another room's path, or a call straight to the agent spend nothing and get nothing. Then a file handed
// in: the page's chooser reaches the controller through the gateway, and the controller's chunks reach the page.
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { roomSocketPath } from '@rooms/api/room-protocol';
import { createTestDatabase, type TestDatabase } from '@rooms/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachmentDisposition } from '../rooms/engine/download-name';
import { fleetProcess } from '../testing/fleet-calls';
import { RoomClient } from '../testing/room-client';
import { uploadChecksum, uploadFile } from '../testing/rooms/file-upload';
import { startTestPages, type TTestPages, testFileBytes } from '../testing/rooms/test-pages';
import { killServerProcesses, startOneAgentFleet } from '../testing/server-processes';
import { storedRoom, storedUser } from '../testing/stored-accounts';
import { agentDownloadPath, DOWNLOAD_KEY_HEADER } from './agent-downloads';
import { developmentSigningKey } from './fleet-keys';

const SECRET = 'gateway-downloads-secret-that-is-long-enough-for-hmac';
const NOT_AVAILABLE =
  'This download is no longer available: it was already saved, it expired, or you are no longer in control of the room';

let database: TestDatabase;
let dataDir: string;
let pages: TTestPages;

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = await mkdtemp(join(tmpdir(), 'rooms-gateway-downloads-'));
  pages = await startTestPages();
}, 60_000);

afterAll(async () => {
  killServerProcesses();
  await pages?.close();
  await database?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** This suite's install: its database, data directory and secret. */
const install = () => ({ databaseUrl: database.url, dataDir, secret: SECRET });

/** Files waiting in the agent's downloads directories (every run's). */
async function filesWaiting(roomsDataDir: string): Promise<string[]> {
  const root = join(roomsDataDir, '.downloads');
  const runs = await readdir(root).catch(() => [] as string[]);
  const files = await Promise.all(runs.map((run) => readdir(join(root, run)).catch(() => [] as string[])));
  return files.flat();
}

describe('files in and out of a room on an agent', () => {
  it('reach its controller through a gateway, once, and nobody else', async () => {
    const { control, agent, publicUrl, roomsDataDir, startGateway } = await startOneAgentFleet(install(), {
      ROOM_EGRESS_ALLOW: pages.hostPort,
    });
    const agentAddress = `127.0.0.1:${agent.port}`;
    const gateway = await startGateway();
    const gatewayUrl = `http://127.0.0.1:${gateway.port}`;
    const owner = await storedUser(database.orm, { prefix: 'dl' });
    const room = await storedRoom(database.orm, owner.id, {
      startUrl: pages.url('/button'),
      maxConnections: 5,
    });
    const started = await fetch(`${publicUrl}/api/room/startRoom?id=${room.id}`, {
      method: 'POST',
      headers: { authorization: owner.token },
    });
    expect(((await started.json()) as { data: { state: string } }).data.state).toBe('running');

    // Two seats of the owner's account through the gateway: the first controls the room, the second watches.
    const seat = async (nickname: string) => {
      const client = await RoomClient.connect(
        `ws://127.0.0.1:${gateway.port}${roomSocketPath(room.id)}?token=${encodeURIComponent(owner.token)}`,
      );
      client.send({ type: 'member/join', nickname });
      return { client, id: (await client.next('member/list')).you };
    };
    const driver = await seat('Olga');
    const watcher = await seat('Olga');
    try {
      expect((await watcher.client.next('control/state')).controllerId).toBe(driver.id);
      const size = 300_000;
      driver.client.send({
        type: 'browser/navigate',
        url: pages.url(`/file?size=${size}&type=text/plain&name=${encodeURIComponent('report 报告.csv')}`),
      });
      const offer = await driver.client.next('download/offered', undefined, 30_000);
      expect(offer).toMatchObject({ name: 'report 报告.csv', size, mime: 'text/csv' });
      // The link is on the room socket's host and path: the gateway the page reached the room through.
      expect(offer.url.startsWith(`/ws/room/${room.id}/downloads/${offer.id}?key=`)).toBe(true);
      const key = new URL(offer.url, gatewayUrl).searchParams.get('key') as string;
      watcher.client.send({ type: 'system/ping', t: 1 });
      await watcher.client.next('system/pong');
      expect(watcher.client.of('download/offered')).toEqual([]);

      // Refused at the gateway: a changed key, the key on another room's path or another offer's.
      const otherRoom = randomUUID();
      for (const path of [
        `/ws/room/${room.id}/downloads/${offer.id}?key=${encodeURIComponent(`${key.slice(0, -2)}AA`)}`,
        `/ws/room/${otherRoom}/downloads/${offer.id}?key=${encodeURIComponent(key)}`,
        `/ws/room/${room.id}/downloads/${randomUUID()}?key=${encodeURIComponent(key)}`,
      ]) {
        const refused = await fetch(new URL(path, gatewayUrl));
        expect(refused.status).toBe(404);
        expect(await refused.json()).toEqual({ msg: 'error', data: NOT_AVAILABLE });
      }
      // Refused at the agent: the right key straight from a browser (no credential), or from the control plane.
      const agentPath = agentDownloadPath(room.id, offer.id);
      const atAgent = (headers: Record<string, string>) =>
        fetch(`http://${agentAddress}${agentPath}`, { headers: { [DOWNLOAD_KEY_HEADER]: key, ...headers } });
      expect((await atAgent({})).status).toBe(401);
      const controlPlane = fleetProcess(developmentSigningKey(SECRET), 'control');
      expect(
        (await atAgent({ authorization: controlPlane.call(agentAddress, 'GET', agentPath) })).status,
      ).toBe(403);
      expect((await fetch(new URL(offer.url, `http://${agentAddress}`))).status).toBe(404);

      // None of that spent the offer: the controller's browser saves exactly the room's bytes, once.
      const response = await fetch(new URL(offer.url, gatewayUrl));
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/csv');
      expect(response.headers.get('content-length')).toBe(String(size));
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
      expect(response.headers.get('content-disposition')).toBe(attachmentDisposition(offer.name));
      expect(Buffer.from(await response.arrayBuffer()).equals(testFileBytes(size))).toBe(true);
      const again = await fetch(new URL(offer.url, gatewayUrl));
      expect(again.status).toBe(404);
      expect(await again.json()).toEqual({ msg: 'error', data: NOT_AVAILABLE });
      // And the file is gone from the agent's disk.
      await expect.poll(() => filesWaiting(roomsDataDir)).toEqual([]);

      // The other way: the page's file chooser asks the controller alone, through the gateway, and the file the
      // controller sends in chunks over the forwarded socket is what the page in the agent's room reads.
      pages.events.length = 0;
      driver.client.send({ type: 'browser/navigate', url: pages.url('/upload') });
      await pages.waitForEvent('ready:upload', 30_000);
      driver.client.click(0.5, 0.2);
      const request = await driver.client.next('file/requested', undefined, 20_000);
      const bytes = testFileBytes(150_000);
      const outcome = await uploadFile(driver.client, bytes, 'notes 笔记.txt', request);
      expect(outcome).toMatchObject({ type: 'file/delivered', name: 'notes 笔记.txt', size: bytes.length });
      expect(await pages.waitForEvent('chosen:', 20_000)).toBe(
        `chosen:notes 笔记.txt:${bytes.length}:${uploadChecksum(bytes)}`,
      );
      expect(watcher.client.of('file/requested')).toEqual([]);
    } finally {
      watcher.client.close();
      driver.client.close();
      await fetch(`http://127.0.0.1:${control.port}/api/room/stopRoom?id=${room.id}`, {
        method: 'POST',
        headers: { authorization: owner.token },
      });
    }
  }, 180_000);
});
