// What one server delivers per room when 1, 2 and 4 rooms stream at once: frames per second reaching a viewer,
// the time from a participant's input to the first frame showing its effect, bytes per second per viewer, and the
// CPU and memory each room's Chromium costs. The viewer is an in-process subscriber to the room's MediaSource,
// the exact point where the WebSocket relay takes frames, and input goes in through RoomSession.applyInput, the
// relay's path into CDP; the WebSocket hop itself is not included. Method: bench/README.md.
// Run: npm run bench:stream [-- seconds=10 clicks=20 width=1280 height=720 fps=30]
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ZRoomInput } from '@rooms/api/room-protocol';
import { startEgressProxy } from '../apps/server/src/rooms/egress/egress-proxy';
import { ChromiumRoomEngine } from '../apps/server/src/rooms/engine/chromium-room-engine';
import type { ChromiumRoomSession } from '../apps/server/src/rooms/engine/chromium-room-session';
import { treeUsage } from '../apps/server/src/rooms/engine/process-tree';
import { startTestPages } from '../apps/server/src/rooms/engine/testing/test-pages';
import type { TMediaChunk } from '../apps/server/src/rooms/room-session';

const options = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [name, value] = arg.split('=');
    return [name, Number(value)];
  }),
);
const SECONDS = options.seconds ?? 10;
const CLICKS = options.clicks ?? 20;
const WIDTH = options.width ?? 1280;
const HEIGHT = options.height ?? 720;
const FPS = options.fps ?? 30;
const ROOM_COUNTS = [1, 2, 4];
const CLICK_TIMEOUT_MS = 3000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

interface TRoomResult {
  fps: number;
  bytesPerSecond: number;
  cpuPercent: number;
  pssBytes: number;
  latencies: number[];
  missed: number;
}

/** Waits for the first frame after `since` whose bytes differ from `previous` (the picture that changed). */
function nextChangedFrame(session: ChromiumRoomSession, previous: Uint8Array | undefined): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error('no frame'));
    }, CLICK_TIMEOUT_MS);
    const unsubscribe = session.video.subscribe((chunk) => {
      if (previous && Buffer.from(chunk.data).equals(previous)) return;
      clearTimeout(timer);
      unsubscribe();
      resolve(performance.now());
    });
  });
}

/** The page of a room once it has stopped repainting. */
async function settled(session: ChromiumRoomSession): Promise<TMediaChunk | undefined> {
  let last = session.video.latestKeyframe();
  for (let tries = 0; tries < 20; tries++) {
    await sleep(250);
    const now = session.video.latestKeyframe();
    if (now && now === last) return now;
    last = now;
  }
  return last;
}

async function measureLatency(
  session: ChromiumRoomSession,
): Promise<{ latencies: number[]; missed: number }> {
  const latencies: number[] = [];
  let missed = 0;
  let previous = (await settled(session))?.data;
  for (let i = 0; i < CLICKS; i++) {
    // Spread the presses over the button so consecutive runs do not line up with each other.
    const x = 0.3 + Math.random() * 0.4;
    const y = 0.3 + Math.random() * 0.4;
    const changed = nextChangedFrame(session, previous);
    const started = performance.now();
    await session.applyInput(
      ZRoomInput.parse({
        type: 'input/pointer',
        action: 'down',
        x,
        y,
        button: 'left',
        buttons: 1,
        clickCount: 1,
      }),
    );
    try {
      latencies.push((await changed) - started);
    } catch {
      missed++;
    }
    await session.applyInput(
      ZRoomInput.parse({
        type: 'input/pointer',
        action: 'up',
        x,
        y,
        button: 'left',
        buttons: 0,
        clickCount: 1,
      }),
    );
    // Let the picture settle so the next press is measured from a quiet screen.
    await sleep(200 + Math.random() * 100);
    previous = session.video.latestKeyframe()?.data;
  }
  return { latencies, missed };
}

async function run(roomCount: number) {
  const pages = await startTestPages();
  const dataDir = await mkdtemp(join(tmpdir(), 'rooms-bench-'));
  const engine = new ChromiumRoomEngine({
    chromiumPath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    roomsDataDir: dataDir,
    capacity: roomCount,
    egress: { start: startEgressProxy, allow: [pages.hostPort] },
  });
  try {
    const ids = Array.from({ length: roomCount }, (_, index) => `bench-${roomCount}-${index}`);
    await Promise.all(
      ids.map((roomId) =>
        engine.start({
          roomId,
          width: WIDTH,
          height: HEIGHT,
          maxFrameRate: FPS,
          videoBitrateKbps: 4000,
          startUrl: pages.url('/animated'),
          keepData: false,
          autoCloseMs: null,
        }),
      ),
    );
    const sessions = ids.map((roomId) => engine.session(roomId)!);
    await sleep(2000); // start-up and first paints are not the steady state

    // Phase 1: an animated page in every room; one viewer each counts frames and bytes.
    const counters = sessions.map(() => ({ frames: 0, bytes: 0 }));
    const unsubscribes = sessions.map((session, index) =>
      session.video.subscribe((chunk) => {
        counters[index]!.frames++;
        counters[index]!.bytes += chunk.data.byteLength;
      }),
    );
    const cpuBefore = await Promise.all(ids.map((roomId) => treeUsage(engine.browserPid(roomId)!)));
    const nodeBefore = process.cpuUsage();
    const started = performance.now();
    await sleep(SECONDS * 1000);
    const elapsed = (performance.now() - started) / 1000;
    const nodeCpu = process.cpuUsage(nodeBefore);
    const usageAfter = await Promise.all(ids.map((roomId) => treeUsage(engine.browserPid(roomId)!)));
    for (const unsubscribe of unsubscribes) unsubscribe();

    // Phase 2: a static page whose button changes colour on press; every room is clicked at the same time.
    await Promise.all(sessions.map((session) => session.navigate(pages.url('/button'))));
    const latency = await Promise.all(sessions.map((session) => measureLatency(session)));

    const results: TRoomResult[] = sessions.map((_, index) => ({
      fps: counters[index]!.frames / elapsed,
      bytesPerSecond: counters[index]!.bytes / elapsed,
      cpuPercent: ((usageAfter[index]!.cpuSeconds - cpuBefore[index]!.cpuSeconds) / elapsed) * 100,
      pssBytes: usageAfter[index]!.pssBytes,
      ...latency[index]!,
    }));
    return { results, nodeCpuPercent: ((nodeCpu.user + nodeCpu.system) / 1e6 / elapsed) * 100 };
  } finally {
    await engine.close();
    await pages.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

console.log(
  `stream bench: ${WIDTH}×${HEIGHT} at max ${FPS} fps, ${SECONDS} s animated + ${CLICKS} presses per room, ` +
    `${availableParallelism()} CPUs, Node ${process.version}`,
);
console.log(
  'rooms  fps/room (min)  latency median  p95   KB/s per viewer  CPU/room  memory/room  server CPU',
);
for (const roomCount of ROOM_COUNTS) {
  const { results, nodeCpuPercent } = await run(roomCount);
  const latencies = results.flatMap((result) => result.latencies).sort((a, b) => a - b);
  const missed = results.reduce((sum, result) => sum + result.missed, 0);
  const fps = results.map((result) => result.fps);
  console.log(
    [
      String(roomCount).padStart(5),
      `${mean(fps).toFixed(1)} (${Math.min(...fps).toFixed(1)})`.padStart(15),
      `${percentile(latencies, 50).toFixed(0)} ms`.padStart(15),
      `${percentile(latencies, 95).toFixed(0)} ms`.padStart(7),
      `${(mean(results.map((result) => result.bytesPerSecond)) / 1024).toFixed(0)}`.padStart(16),
      `${mean(results.map((result) => result.cpuPercent)).toFixed(0)}%`.padStart(9),
      `${(mean(results.map((result) => result.pssBytes)) / 1024 ** 2).toFixed(0)} MB`.padStart(12),
      `${nodeCpuPercent.toFixed(0)}%`.padStart(11),
      missed > 0 ? `  (${missed} presses showed no frame within ${CLICK_TIMEOUT_MS} ms)` : '',
    ].join(' '),
  );
}
