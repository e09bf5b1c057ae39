// The whole path with a real room: created and started over REST, Chromium showing a page served on loopback,
// two participants on the WebSocket. A button page reports each press (/event/clicked), so whose click reached
// the browser is checked without reading pixels; the frames are real JPEGs of the live page.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rest } from '../testing/rest-client';
import { enterAsMember } from '../testing/room-member';
import { createOwner, uniqueRoomName } from '../testing/room-test-users';
import { startTestPages, type TTestPages } from '../testing/rooms/test-pages';
import { startTestServer, type TTestServer } from '../testing/test-server';

let server: TTestServer;
let pages: TTestPages;
let roomsDataDir: string;

beforeAll(async () => {
  pages = await startTestPages();
  roomsDataDir = await mkdtemp(join(tmpdir(), 'rooms-relay-'));
  server = await startTestServer({
    env: { ROOMS_DATA_DIR: roomsDataDir, ROOM_EGRESS_ALLOW: pages.hostPort },
  });
});

afterAll(async () => {
  await server?.close();
  await pages?.close();
  await rm(roomsDataDir, { recursive: true, force: true });
});

function enter(roomId: string, nickname: string, auth: { token?: string; password?: string }) {
  return enterAsMember(server, roomId, nickname, auth);
}

const isJpeg = (data: Uint8Array) => data[0] === 0xff && data[1] === 0xd8;
const clicks = () => pages.events.filter((event) => event === 'clicked').length;

describe('a running room over the WebSocket', () => {
  it('streams the live page to two participants; only the controller’s click reaches it', async () => {
    const owner = await createOwner(server.app);
    const created = await rest<{ id: string }>(server.app, 'POST', '/api/room/createRoom', {
      token: owner.token,
      body: {
        name: uniqueRoomName('relay'),
        password: 'sesame',
        region: 'local',
        image: 'chromium-url',
        startUrl: pages.url('/button'),
        maxFrameRate: 10,
      },
    });
    expect(created.msg, JSON.stringify(created.data)).toBe('success');
    const roomId = created.data.id;
    const started = await rest(server.app, 'POST', '/api/room/startRoom', {
      token: owner.token,
      query: { id: roomId },
    });
    expect(started).toMatchObject({ msg: 'success', data: { state: 'running' } });

    const olga = await enter(roomId, 'Olga', { token: owner.token });
    const gus = await enter(roomId, 'Gus', { password: 'sesame' });
    expect(await olga.client.next('stream/config')).toMatchObject({ codec: 'jpeg', fps: 10 });

    // Both see the page at once (the latest keyframe on join) and keep receiving it.
    // A room just started: its first picture waits on the page's load, which a loaded machine slows.
    await gus.client.until(() => gus.client.frames.length > 0, 'the first frame', 30_000);
    const frame = gus.client.frames[0]!;
    expect(frame).toMatchObject({ codec: 'jpeg', keyframe: true, width: 1280, height: 720 });
    expect(isJpeg(frame.data)).toBe(true);
    expect(server.app.roomEngine.state(roomId)).toBe('running');

    // Gus presses the button without control: refused, the page never hears of it.
    gus.client.click(0.5, 0.5);
    expect(await gus.client.next('system/error')).toMatchObject({ code: 'NOT_CONTROLLER' });

    // Olga, the owner, is in control: her press reaches the page, and the page repaints for both.
    const before = gus.client.frames.length;
    olga.client.click(0.5, 0.5);
    await pages.waitForEvent('clicked', 20_000);
    expect(clicks()).toBe(1);
    await gus.client.until(() => gus.client.frames.length > before, 'a frame after the press');

    // Gus asks, Olga grants: now his press counts.
    gus.client.send({ type: 'control/request' });
    await olga.client.next('control/state', (state) => state.queue.includes(gus.you));
    olga.client.send({ type: 'control/grant', memberId: gus.you });
    await gus.client.next('control/state', (state) => state.controllerId === gus.you);
    gus.client.click(0.5, 0.5);
    await expect.poll(clicks, { timeout: 20_000 }).toBe(2);

    // The owner takes control back; Gus's presses are ignored again.
    olga.client.send({ type: 'control/take' });
    await gus.client.next('control/state', (state) => state.controllerId === olga.you);
    gus.client.click(0.5, 0.5);
    gus.client.send({ type: 'system/ping', t: 1 });
    await gus.client.next('system/pong');
    olga.client.send({ type: 'system/ping', t: 2 });
    await olga.client.next('system/pong');
    expect(clicks()).toBe(2);

    gus.client.close();
    olga.client.close();
    await olga.client.closedWith();
    await rest(server.app, 'POST', '/api/room/stopRoom', { token: owner.token, query: { id: roomId } });
  });
});
