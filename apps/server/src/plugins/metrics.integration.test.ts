// /metrics scraped from the real server while it works: HTTP latency by route, a real room starting, streaming to
// a participant, freezing once and stopping, each series moving with it; and only a holder of the token may scrape.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { roomSocketPath, type TRoomTicketResponse } from '@rooms/api/room-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rest } from '../testing/rest-client';
import { RoomClient } from '../testing/room-client';
import { createOwner, uniqueRoomName } from '../testing/room-test-users';
import { startTestServer, type TTestServer } from '../testing/test-server';

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

/** Every process below `pid` (the encoder may run behind the sandbox's launcher). */
function descendants(pid: number): number[] {
  let children: number[];
  try {
    children = execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
  return children.flatMap((child) => [child, ...descendants(child)]);
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

      // The encoder stalls for 1.5 s (as on a starved machine): viewers saw the picture freeze, and it counts.
      const encoder = (server.app.roomEngine.session(roomId)?.video as { pid?: number } | undefined)?.pid;
      expect(encoder).toBeDefined();
      const stalled = [encoder as number, ...descendants(encoder as number)];
      for (const pid of stalled) process.kill(pid, 'SIGSTOP');
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      for (const pid of stalled) process.kill(pid, 'SIGCONT');
      const seen = client.frames.length;
      await client.until(() => client.frames.length >= seen + 10, 'frames after the stall', 30_000);
      const thawed = await scrape();
      expect(value(thawed, 'rooms_stream_freezes_total') - value(live, 'rooms_stream_freezes_total')).toBe(1);
    } finally {
      client.socket.close();
    }
    await rest(server.app, 'POST', '/api/room/stopRoom', { token: owner.token, query: { id: roomId } });
    const after = await scrape();
    expect(value(after, 'rooms_rooms{state="running"}')).toBe(0);
    expect(after).toContain('rooms_process_resident_memory_bytes');
    expect(after).toContain('rooms_job_queue_depth');
  });

  it('exports every series the dashboard and the alert rules name (a server of every role: role all)', async () => {
    const exported = new Set(
      (await scrape())
        .split('\n')
        .filter((line) => line.startsWith('# TYPE '))
        .map((line) => line.split(' ')[2]),
    );
    const monitoring = join(import.meta.dirname, '../../../../deploy/monitoring');
    const named = new Set<string>();
    for (const file of ['prometheus-rules.yaml', 'grafana-dashboard.json']) {
      const text = await readFile(join(monitoring, file), 'utf8');
      for (const [series] of text.matchAll(/\brooms_[a-z0-9_]+/g)) {
        // A histogram's series are named after it.
        named.add(series.replace(/_(bucket|count|sum)$/, ''));
      }
    }
    expect(named.size).toBeGreaterThan(10);
    expect([...named].filter((series) => !exported.has(series))).toEqual([]);
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
