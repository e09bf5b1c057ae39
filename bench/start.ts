// Room start as its owner lives it, on the real server: Start (the REST call returns once the room runs), then
// Enter (a room socket that joins) → the first picture, then Stop; repeated. Cold: a server without warm browsers
// (ROOM_WARM_POOL=0), every start launches one. Warm: a server keeping one (ROOM_WARM_POOL=1), each cycle waiting
// until the pool holds a browser again after the last start (so it measures a start that finds one; the wait is
// not counted). Prints each cycle and the median and worst of both figures per mode.
// burst=N starts N rooms back to back in each cycle, each right after the previous one showed its first picture
// (people opening rooms together), on a server whose warm pool keeps N browsers: every start should find one.
// The participant declares no decoders by default, so it gets the screencast the way a browser without WebCodecs
// does; as=h264 declares H.264 and Opus, so its first picture waits for the room's encoder to start.
// Late joiner: once the first participant has its picture, a second one enters the running room and should get a
// picture at once, a keyframe the room already has rather than the encoder's next (within 100 ms; the media
// integration test checks that it is the room's last keyframe, this measures how soon). Not with burst=N.
// Disable: last, an administrator disables the owner of a running room with a participant inside; the time until the
// participant's socket is closed and the room stopped (within a second; the admin test checks that both happen).
// Run: npm run bench:start [-- cycles=8 modes=cold,warm as=jpeg burst=1 pool=<burst>]
import { roomSocketPath } from '@rooms/api/room-protocol';
import { User } from '@rooms/db';
import { RoomClient } from '../apps/server/src/testing/room-client';
import { callerOf, signInOwner, startBenchServer, type TBenchServer } from './bench-server';

const args = Object.fromEntries(process.argv.slice(2).map((arg) => arg.split('=') as [string, string]));
const CYCLES = Number(args.cycles ?? 8);
const MODES = (args.modes ?? 'cold,warm').split(',') as ('cold' | 'warm')[];
const H264 = args.as === 'h264';
const BURST = Math.max(1, Number(args.burst ?? 1));
/** Warm browsers the warm mode's server keeps: as many as the burst starts, unless pool=K says otherwise. */
const POOL = Number(args.pool ?? BURST);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface TResult {
  mode: string;
  starts: number[];
  pictures: number[];
  /** Late joiner: Enter → first picture in a room already streaming. */
  late: number[];
  /** Late joiners whose first picture was not a keyframe. */
  lateNotKeyframe: number;
  /** Owner disabled → the participant's socket closed and the room stopped; undefined if not within 20 s. */
  disabled?: number;
  /** Cycles whose participant got no picture within 20 s. */
  stalls: number[];
  /** Warm mode: cycles whose start found no warm browser (it had not come up within 30 s). */
  cold: number[];
}

async function waitForWarm(server: TBenchServer): Promise<boolean> {
  for (let waited = 0; waited < 30_000; waited += 50) {
    if (server.app.roomEngine.warmRuns().ready >= Math.min(POOL, BURST)) return true;
    await sleep(50);
  }
  return false;
}

async function run(mode: 'cold' | 'warm'): Promise<TResult> {
  const server = await startBenchServer({
    name: `start-${mode}`,
    postgresPort: 5598,
    // Slots for the burst's rooms and as many warm browsers beside them.
    env: {
      ROOM_WARM_POOL: mode === 'warm' ? String(POOL) : '0',
      ROOM_CAPACITY: String(Math.max(4, 2 * BURST)),
    },
  });
  const rooms: { id: string }[] = [];
  for (let index = 1; index <= BURST; index++) {
    rooms.push(
      await server.call('/api/room/createRoom', {
        name: `start-bench-${mode}-${index}`,
        region: 'local',
        image: 'chromium-url',
        startUrl: server.pages.url('/animated'),
      }),
    );
  }
  const result: TResult = {
    mode,
    starts: [],
    pictures: [],
    late: [],
    lateNotKeyframe: 0,
    stalls: [],
    cold: [],
  };
  console.log(
    `\n${mode}${H264 ? ', participant with H.264' : ''}${BURST > 1 ? `, ${BURST} rooms a cycle` : ''}\n`,
  );
  console.log('| cycle | room | Start → running ms | Enter → first picture ms | late joiner ms |');
  console.log('| ---: | ---: | ---: | ---: | ---: |');
  try {
    // The first start teaches the pool the room's shape; it is not counted.
    if (mode === 'warm') {
      const first = rooms[0] as { id: string };
      await server.call('/api/room/startRoom', { id: first.id });
      await server.call('/api/room/stopRoom', { id: first.id });
    }
    for (let cycle = 1; cycle <= CYCLES; cycle++) {
      if (mode === 'warm' && !(await waitForWarm(server))) result.cold.push(cycle);
      const clients: RoomClient[] = [];
      for (const [index, room] of rooms.entries()) {
        const asked = performance.now();
        await server.call('/api/room/startRoom', { id: room.id });
        const running = performance.now();
        const client = await RoomClient.connect(
          `ws://127.0.0.1:${server.port}${roomSocketPath(room.id)}?token=${encodeURIComponent(server.token)}`,
        );
        clients.push(client);
        client.send(
          H264
            ? { type: 'member/join', nickname: 'owner', decoders: ['h264', 'opus'] }
            : { type: 'member/join', nickname: 'owner' },
        );
        // A room running without a picture for its participant is a finding, not the end of the run.
        const pictureCame = await client
          .until(() => client.frames.some((frame) => frame.codec !== 'opus'), 'a picture', 20_000)
          .then(
            () => true,
            () => false,
          );
        if (!pictureCame) result.stalls.push(cycle);
        const pictured = performance.now();
        result.starts.push(running - asked);
        if (pictureCame) result.pictures.push(pictured - running);
        // Left out of bursts, whose next start follows the first picture at once.
        const late = pictureCame && BURST === 1 ? await lateJoiner(server, room.id, result) : undefined;
        if (late) clients.push(late.client);
        const [startMs, pictureMs] = [(running - asked).toFixed(0), (pictured - running).toFixed(0)];
        const lateMs = late ? late.ms.toFixed(0) : '–';
        console.log(`| ${cycle} | ${index + 1} | ${startMs} | ${pictureMs} | ${lateMs} |`);
      }
      for (const client of clients) client.close();
      for (const room of rooms) await server.call('/api/room/stopRoom', { id: room.id });
    }
    result.disabled = await disableOwner(server, mode, (rooms[0] as { id: string }).id);
  } finally {
    await server.close();
  }
  return result;
}

/** A second participant entering the running room: Enter → its first picture, and whether that is a keyframe. */
async function lateJoiner(
  server: TBenchServer,
  roomId: string,
  result: TResult,
): Promise<{ client: RoomClient; ms: number }> {
  const client = await RoomClient.connect(
    `ws://127.0.0.1:${server.port}${roomSocketPath(roomId)}?token=${encodeURIComponent(server.token)}`,
  );
  const picture = () => client.frames.find((frame) => frame.codec !== 'opus');
  const entered = performance.now();
  client.send(
    H264
      ? { type: 'member/join', nickname: 'late', decoders: ['h264', 'opus'] }
      : { type: 'member/join', nickname: 'late' },
  );
  const came = await client
    .until(() => picture() !== undefined, 'a picture', 20_000)
    .then(
      () => true,
      () => false,
    );
  if (!came) return { client, ms: Number.NaN }; // printed as NaN: no picture within 20 s
  const ms = performance.now() - entered;
  result.late.push(ms);
  if (H264 && !picture()?.keyframe) result.lateNotKeyframe += 1;
  return { client, ms };
}

/** An administrator disables the owner of a running room, with the owner inside: → socket closed, room stopped. */
async function disableOwner(server: TBenchServer, mode: string, roomId: string): Promise<number | undefined> {
  const em = server.app.orm.em.fork();
  const adminName = `start-bench-admin-${mode}`;
  const admin = callerOf(server.port, await signInOwner(em, adminName));
  await em.nativeUpdate(User, { username: adminName }, { role: 'admin' });
  const owner = await em.findOneOrFail(User, { username: `start-${mode}` });
  if (mode === 'warm') await waitForWarm(server);
  await server.call('/api/room/startRoom', { id: roomId });
  const client = await RoomClient.connect(
    `ws://127.0.0.1:${server.port}${roomSocketPath(roomId)}?token=${encodeURIComponent(server.token)}`,
  );
  client.send({ type: 'member/join', nickname: 'owner' });
  await client.until(() => client.frames.some((frame) => frame.codec !== 'opus'), 'a picture', 20_000);
  const begun = performance.now();
  await admin('/api/admin/users/setDisabled', {
    userId: owner.id,
    disabled: true,
    reason: 'Benchmark of disabling',
  });
  for (const stopped of [
    () => client.closed !== undefined,
    () => server.app.roomEngine.state(roomId) === 'stopped',
  ]) {
    for (let waited = 0; !stopped(); waited += 5) {
      if (waited > 20_000) return undefined;
      await sleep(5);
    }
  }
  return performance.now() - begun;
}

async function main(): Promise<void> {
  const results: TResult[] = [];
  for (const mode of MODES) results.push(await run(mode));
  console.log('');
  for (const { mode, starts, pictures, late, lateNotKeyframe, disabled, stalls, cold } of results) {
    const disabling = disabled === undefined ? 'not within 20 s' : `${disabled.toFixed(0)} ms`;
    console.log(
      `${mode}: Start → running median ${median(starts).toFixed(0)} ms, worst ${Math.max(...starts).toFixed(0)} ms; ` +
        `Enter → first picture median ${median(pictures).toFixed(0)} ms, worst ${Math.max(...pictures).toFixed(0)} ms; ` +
        `late joiner median ${median(late).toFixed(0)} ms, worst ${Math.max(...late).toFixed(0)} ms, ` +
        `over 100 ms: ${late.filter((ms) => ms > 100).length} of ${late.length}` +
        (H264 ? `, not a keyframe first: ${lateNotKeyframe}` : '') +
        `; owner disabled → socket closed, room stopped ${disabling}` +
        '; ' +
        `cycles without a picture within 20 s: ${stalls.length ? stalls.join(', ') : 'none'}` +
        (mode === 'warm'
          ? `; cycles that found no warm browser: ${cold.length ? cold.join(', ') : 'none'}`
          : ''),
    );
  }
}

await main();
