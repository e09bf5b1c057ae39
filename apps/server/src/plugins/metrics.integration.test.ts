// /metrics scraped from the real server while it works: HTTP latency by route, a real room starting, streaming to
// a participant and stopping, each series moving with it; and only a holder of the token (or, without one, this
// machine) may scrape.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { roomSocketPath, type TRoomTicketResponse } from '@rooms/api/room-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOwner, uniqueRoomName } from '../rooms/room-test-users';
import { rest } from '../testing/rest-client';
import { startTestServer, type TTestServer } from '../testing/test-server';
import { RoomClient } from '../ws/room-client';

const TOKEN = 'metrics-token-for-the-test';
let server: TTestServer;
let roomsDataDir: string;

beforeAll(async () => {
  roomsDataDir = await mkdtemp(join(tmpdir(), 'rooms-metrics-'));
  server = await startTestServer({ env: { ROOMS_DATA_DIR: roomsDataDir, METRICS_TOKEN: TOKEN } });
});

afterAll(async () => {
  await server?.close();
  await rm(roomsDataDir, { recursive: true, force: true });
});

async function scrape(): Promise<string> {
  const response = await server.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toContain('text/plain');
  return response.body;
}

/** The value of one series, e.g. `rooms_rooms{state="running"}`; 0 when absent. */
function value(text: string, series: string): number {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe('/metrics', () => {
  it('answers only with the token, like a missing path otherwise', async () => {
    const missing = { statusCode: 404, body: JSON.stringify({ msg: 'error', data: 'Not found' }) };
    for (const headers of [
      {},
      { authorization: 'Bearer wrong-token-of-any-length' },
      { authorization: TOKEN },
    ]) {
      const response = await server.app.inject({ method: 'GET', url: '/metrics', headers });
      expect({ statusCode: response.statusCode, body: response.body }).toEqual(missing);
    }
  });

  it('shows HTTP latency by route, and rooms, participants and the stream moving with a real room', async () => {
    const route =
      'rooms_http_request_duration_seconds_count{method="GET",route="/api/captcha/config",status="200"}';
    const before = await scrape();
    for (let index = 0; index < 3; index++) await server.app.inject('/api/captcha/config');
    const trpcRoute =
      'rooms_http_request_duration_seconds_count{method="GET",route="/trpc/captcha.config",status="200"}';
    await server.app.inject('/trpc/captcha.config');
    const afterRequests = await scrape();
    expect(value(afterRequests, route) - value(before, route)).toBe(3);
    expect(value(afterRequests, trpcRoute) - value(before, trpcRoute)).toBe(1);
    expect(value(before, 'rooms_rooms{state="running"}')).toBe(0);
    // This server keeps no warm browser (ROOM_WARM_POOL=0 in tests): the series is there, at zero.
    expect(before).toContain('rooms_warm_browsers{status="ready"} 0');

    const owner = await createOwner(server.app);
    const created = await rest<{ id: string }>(server.app, 'POST', '/api/room/createRoom', {
      token: owner.token,
      body: { name: uniqueRoomName('metrics'), region: 'local', image: 'chromium-blank' },
    });
    const roomId = created.data.id;
    const started = await rest(server.app, 'POST', '/api/room/startRoom', {
      token: owner.token,
      query: { id: roomId },
    });
    expect(started).toMatchObject({ data: { state: 'running' } });
    const ticket = await server.app.inject({
      method: 'POST',
      url: '/ws/ticket',
      headers: { authorization: owner.token },
      payload: { roomId },
    });
    const { ticket: value_ } = ticket.json() as TRoomTicketResponse;
    const url = `${server.url.replace(/^http/, 'ws')}${roomSocketPath(roomId)}?ticket=${encodeURIComponent(value_)}`;
    const client = await RoomClient.connect(url, { origin: new URL(server.config.publicUrl).origin });
    try {
      // A participant that decodes H.264: the encoder sends at the room's frame rate even on a still page.
      client.send({ type: 'member/join', nickname: 'Owner', decoders: ['h264', 'opus', 'jpeg'] });
      // The encoder starts with this first viewer of a room just started.
      await client.until(
        () => client.frames.filter((frame) => frame.codec !== 'opus').length >= 10,
        'frames',
        30_000,
      );
      const live = await scrape();
      expect(value(live, 'rooms_rooms{state="running"}')).toBe(1);
      expect(value(live, 'rooms_room_starts_total')).toBe(1);
      expect(value(live, 'rooms_participants')).toBe(1);
      const fps =
        value(live, 'rooms_stream_fps{path="h264"}') + value(live, 'rooms_stream_fps{path="screencast"}');
      const kbps =
        value(live, 'rooms_stream_bitrate_kbps{path="h264"}') +
        value(live, 'rooms_stream_bitrate_kbps{path="screencast"}');
      expect(fps).toBeGreaterThan(0);
      expect(kbps).toBeGreaterThan(0);
      console.log(`a live room: ${fps} fps, ${kbps} kbit/s`);
    } finally {
      client.socket.close();
    }
    await rest(server.app, 'POST', '/api/room/stopRoom', { token: owner.token, query: { id: roomId } });
    const after = await scrape();
    expect(value(after, 'rooms_rooms{state="running"}')).toBe(0);
    expect(after).toContain('rooms_process_resident_memory_bytes');
    expect(after).toContain('rooms_job_queue_depth');
  });

  it('is off without a token: this machine cannot scrape either (a same-host proxy would look like it)', async () => {
    const open = await startTestServer({ listen: false });
    try {
      const local = await open.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
      expect(local.statusCode).toBe(404);
      const remote = await open.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9' });
      expect(remote.statusCode).toBe(404);
      const forwarded = await open.app.inject({
        method: 'GET',
        url: '/metrics',
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-for': '203.0.113.9' },
      });
      expect(forwarded.statusCode).toBe(404);
    } finally {
      await open.close();
    }
  });
});
