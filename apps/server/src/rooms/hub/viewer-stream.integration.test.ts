// A viewer on a real slow link (a network namespace behind `tc tbf`, testing/shaped-link.ts) watching a room whose
// picture needs more than the link carries: the server sees it in the viewer's acknowledgements, moves it to a
// lower layer, and its pictures and sound flow again, while a viewer on a fast link keeps the room's own layer.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { roomSocketPath, type TMediaFrame, type TRoomTicketResponse } from '@rooms/api/room-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rest } from '../../testing/rest-client';
import { RoomClient } from '../../testing/room-client';
import { createOwner, uniqueRoomName } from '../../testing/room-test-users';
import { startTestPages, type TTestPages } from '../../testing/rooms/test-pages';
import { canShapeLinks, openShapedLink, type TShapedLink } from '../../testing/shaped-link';
import { startTestServer, type TTestServer } from '../../testing/test-server';

const shaping = await canShapeLinks();
let server: TTestServer;
let pages: TTestPages;
let link: TShapedLink;
let roomsDataDir: string;

beforeAll(async () => {
  if (!shaping) return;
  pages = await startTestPages();
  roomsDataDir = await mkdtemp(join(tmpdir(), 'rooms-link-'));
  server = await startTestServer({
    // Reached from the link's namespace, not only from loopback.
    host: '0.0.0.0',
    env: { ROOMS_DATA_DIR: roomsDataDir, ROOM_EGRESS_ALLOW: pages.hostPort, ROOM_MEDIA: 'h264' },
  });
  link = await openShapedLink({ kbps: 1000, serverPort: Number(new URL(server.url).port) });
});

afterAll(async () => {
  await link?.close();
  await server?.close();
  await pages?.close();
  if (roomsDataDir) await rm(roomsDataDir, { recursive: true, force: true });
});

async function watch(roomId: string, token: string, host: string, nickname: string): Promise<RoomClient> {
  const response = await server.app.inject({
    method: 'POST',
    url: '/ws/ticket',
    headers: { authorization: token },
    payload: { roomId },
  });
  const { ticket } = response.json() as TRoomTicketResponse;
  const client = await RoomClient.connect(
    `ws://${host}${roomSocketPath(roomId)}?ticket=${encodeURIComponent(ticket)}`,
    {
      origin: new URL(server.config.publicUrl).origin,
    },
  );
  client.send({
    type: 'member/join',
    nickname,
    decoders: ['h264', 'opus', 'jpeg'],
    layer: 'auto',
    acks: true,
  });
  client.acknowledge();
  return client;
}

/** Pictures and sound (10 ms units) of the frames received from index `from` on. */
function tally(frames: readonly TMediaFrame[], from: number) {
  const since = frames.slice(from);
  const pictures = since.filter((frame) => frame.codec === 'h264');
  const sound = since.filter((frame) => frame.codec === 'opus');
  const soundMs = sound.length >= 2 ? sound.at(-1)!.timestamp - sound[0]!.timestamp : 0;
  // A packet of 20 ms counts twice: the lowest layer's sound comes in 20 ms packets.
  const heardMs = sound.reduce(
    (sum, packet, index) =>
      sum + (index === 0 ? 0 : Math.min(20, packet.timestamp - sound[index - 1]!.timestamp)),
    0,
  );
  return { pictures, widths: new Set(pictures.map((frame) => frame.width)), soundMs, heardMs };
}

describe.skipIf(!shaping)('a viewer on a 1 Mbit/s link', () => {
  it('is moved to a layer the link carries and gets a moving picture and its sound, while a fast viewer keeps the room’s own', async () => {
    const owner = await createOwner(server.app, { plan: 'pro' });
    const created = await rest<{ id: string }>(server.app, 'POST', '/api/room/createRoom', {
      token: owner.token,
      body: {
        name: uniqueRoomName('link'),
        password: 'sesame',
        region: 'local',
        image: 'chromium-url',
        startUrl: pages.url('/noise-tone'),
        width: 1280,
        height: 720,
        maxFrameRate: 30,
        videoBitrateKbps: 2500,
      },
    });
    const roomId = created.data.id;
    expect(
      await rest(server.app, 'POST', '/api/room/startRoom', { token: owner.token, query: { id: roomId } }),
    ).toMatchObject({
      msg: 'success',
    });
    await pages.waitForEvent('noise-tone:running', 15_000);

    const fast = await watch(roomId, owner.token, new URL(server.url).host, 'Fast');
    const slow = await watch(roomId, owner.token, link.address, 'Slow');
    // The link cannot carry the room's 2.5 Mbit/s: the slow viewer is moved down, the fast one is not.
    const moved = await slow.next('stream/layer', (message) => message.reason === 'congested', 15_000);
    expect(moved.layer).not.toBe('high');
    // Settled on a layer that fits (a probe upwards may come and go): watch what arrives for 6 s.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const [slowFrom, fastFrom] = [slow.frames.length, fast.frames.length];
    await new Promise((resolve) => setTimeout(resolve, 6000));
    const slowSeen = tally(slow.frames, slowFrom);
    const fastSeen = tally(fast.frames, fastFrom);

    expect(fast.of('stream/layer').map((message) => message.layer)).toEqual(['high']);
    expect(fastSeen.widths).toEqual(new Set([1280]));
    // A loaded machine may draw fewer than 30 pictures a second; a link that cannot carry them would get a few.
    expect(slowSeen.pictures.length / 6).toBeGreaterThan(15);
    expect([...slowSeen.widths].every((width) => width < 1280)).toBe(true);
    // The sound goes first: it arrives whole.
    expect(slowSeen.heardMs / slowSeen.soundMs).toBeGreaterThan(0.97);

    fast.close();
    slow.close();
    await rest(server.app, 'POST', '/api/room/stopRoom', { token: owner.token, query: { id: roomId } });
  });
});
