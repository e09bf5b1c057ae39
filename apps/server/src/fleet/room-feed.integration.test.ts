// The room feed as real processes: a control plane, an agent on the media pipeline and two gateways, with six
// viewers of one room split over the gateways. The agent sends each gateway one copy of what its viewers watch,
// not one per viewer; the viewers decode their pictures and hear the sound as viewers of a single server do.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { roomSocketPath } from '@rooms/api/room-protocol';
import { createTestDatabase, type TestDatabase } from '@rooms/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RoomClient } from '../testing/room-client';
import { decodeH264 } from '../testing/rooms/decode-check';
import { killServerProcesses, startOneAgentFleet } from '../testing/server-processes';
import { storedRoom, storedUser } from '../testing/stored-accounts';

const run = promisify(execFile);
const SECRET = 'room-feed-secret-that-is-long-enough-for-hmac';

let database: TestDatabase;
let page: Server;
let pageHost: string;
let dataDir: string;

beforeAll(async () => {
  database = await createTestDatabase();
  page = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' }).end(
      `<!doctype html><title>moving</title><canvas id=c width=64 height=64 style="width:100%;height:100%"></canvas><script>
        let n = 0; const c = document.getElementById('c').getContext('2d');
        (function f() { c.fillStyle = 'hsl(' + (n++ % 360) + ',80%,50%)'; c.fillRect(0, 0, 64, 64);
          c.fillStyle = '#fff'; c.fillRect(n % 64, 20, 8, 8); requestAnimationFrame(f); })();
      </script>`,
    );
  });
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  pageHost = `127.0.0.1:${(page.address() as { port: number }).port}`;
  dataDir = await mkdtemp(join(tmpdir(), 'rooms-feed-'));
}, 60_000);

afterAll(async () => {
  killServerProcesses();
  await new Promise((resolve) => page?.close(resolve));
  await database?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** This suite's install: its database, data directory and secret. */
const install = () => ({ databaseUrl: database.url, dataDir, secret: SECRET });

/** Bytes the agent has sent on its connections (every gateway's), from the kernel's socket counters. */
async function agentBytesSent(port: number): Promise<number> {
  const { stdout } = await run('ss', ['-tinH', 'state', 'established', `( sport = :${port} )`]);
  return [...stdout.matchAll(/bytes_sent:(\d+)/g)].reduce((sum, match) => sum + Number(match[1]), 0);
}

describe('a room watched through two gateways', () => {
  it('costs the agent one copy per gateway, and every viewer decodes its pictures', async () => {
    const { control, agent, startGateway } = await startOneAgentFleet(install(), {
      ROOM_EGRESS_ALLOW: pageHost,
      ROOM_MEDIA: 'h264',
    });
    const agentPort = agent.port;
    const gateways = [await startGateway('gateway-1'), await startGateway('gateway-2')];
    const owner = await storedUser(database.orm, { prefix: 'feed' });
    const room = await storedRoom(database.orm, owner.id, {
      startUrl: `http://${pageHost}/`,
      width: 640,
      height: 360,
      maxFrameRate: 30,
      videoBitrateKbps: 1000,
      maxConnections: 10,
    });
    const started = await fetch(`http://127.0.0.1:${control.port}/api/room/startRoom?id=${room.id}`, {
      method: 'POST',
      headers: { authorization: owner.token },
    });
    expect(((await started.json()) as { data: { state: string } }).data.state).toBe('running');

    const viewers: RoomClient[] = [];
    for (let index = 0; index < 6; index++) {
      const gateway = gateways[index % 2]!;
      const client = await RoomClient.connect(
        `ws://127.0.0.1:${gateway.port}${roomSocketPath(room.id)}?token=${encodeURIComponent(owner.token)}`,
      );
      client.send({
        type: 'member/join',
        nickname: `Viewer ${index}`,
        decoders: ['h264', 'opus', 'jpeg'],
        layer: 'auto',
        acks: true,
      });
      client.acknowledge();
      viewers.push(client);
    }
    for (const viewer of viewers) {
      await viewer.next('stream/layer');
      await viewer.until(
        () => viewer.frames.filter((frame) => frame.codec === 'h264').length > 10,
        'pictures',
        20_000,
      );
    }

    const sentBefore = await agentBytesSent(agentPort);
    const receivedBefore = viewers.map((viewer) => viewer.receivedBytes);
    await new Promise((resolve) => setTimeout(resolve, 4000));
    const sent = (await agentBytesSent(agentPort)) - sentBefore;
    const received = viewers.map((viewer, index) => viewer.receivedBytes - receivedBefore[index]!);
    const perViewer = received.reduce((sum, bytes) => sum + bytes, 0) / received.length;
    // Two gateways, six viewers: about two viewers' worth leaves the agent (six, before the feed).
    expect(sent / perViewer).toBeGreaterThan(1.5);
    expect(sent / perViewer).toBeLessThan(2.5);

    for (const viewer of viewers) {
      const pictures = viewer.frames.filter((frame) => frame.codec === 'h264');
      const start = pictures.findIndex((frame) => frame.keyframe);
      const units = pictures.slice(start).map((frame) => frame.data);
      const decoded = await decodeH264(units);
      expect(decoded.errors).toBe('');
      expect(decoded.frames).toBe(units.length);
      expect(viewer.frames.some((frame) => frame.codec === 'opus')).toBe(true);
      viewer.close();
    }
  }, 120_000);
});
