// What one server delivers per room on each media path (the CDP screencast and H.264 + Opus) when 1, 2 and 4
// rooms stream at once, at 30 and 60 fps: frames per second reaching a viewer, the time from a participant's input
// to the first frame showing its effect, bits per second per viewer, the CPU and memory each room costs (its
// Chromium and, on the H.264 path, its Xvfb, pulseaudio and ffmpeg processes), and on the H.264 path the offset
// between picture and sound. The viewer is an in-process subscriber to the room's MediaSources, the exact point
// where the WebSocket relay takes chunks, and input goes in through RoomSession.applyInput, the relay's path into
// CDP; the WebSocket hop itself is not included. Method: bench/README.md.
// Run: npm run bench:stream [-- seconds=10 clicks=20 width=1280 height=720 bitrate=2000 paths=screencast,h264
//      fps=30,60 rooms=1,2,4]
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ZRoomInput } from '@rooms/api/room-protocol';
import { startEgressProxy } from '../apps/server/src/rooms/egress/egress-proxy';
import { ChromiumRoomEngine, type TMediaPath } from '../apps/server/src/rooms/engine/chromium-room-engine';
import type { ChromiumRoomSession } from '../apps/server/src/rooms/engine/chromium-room-session';
import { treeUsage } from '../apps/server/src/rooms/engine/process-tree';
import { startTestPages, type TTestPages } from '../apps/server/src/rooms/engine/testing/test-pages';
import { decodeH264, opusLoudness } from '../apps/server/src/rooms/media/testing/decode-check';
import type { MediaSource, TMediaChunk } from '../apps/server/src/rooms/room-session';

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [name, value = ''] = arg.split('=');
    return [name, value];
  }),
);
const number = (name: string, fallback: number) => (args[name] ? Number(args[name]) : fallback);
const list = <T extends string>(name: string, fallback: T[]) =>
  args[name] ? (args[name].split(',') as T[]) : fallback;

const SECONDS = number('seconds', 10);
const CLICKS = number('clicks', 20);
const WIDTH = number('width', 1280);
const HEIGHT = number('height', 720);
const BITRATE_KBPS = number('bitrate', 2000);
const PATHS = list<TMediaPath>('paths', ['screencast', 'h264']);
const FRAME_RATES = list('fps', ['30', '60']).map(Number);
const ROOM_COUNTS = list('rooms', ['1', '2', '4']).map(Number);
const CLICK_TIMEOUT_MS = 3000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

/**
 * Tells when the picture changes. JPEG frames are compared byte for byte (a still page sends nothing until it
 * changes); H.264 frames are decoded by a live ffmpeg into a tiny grey picture of the page's middle, and each
 * decoded picture is matched back to its access unit's server timestamp (no B-frames: one picture per unit, in
 * order), so the decoder's own delay is not counted.
 */
interface TChangeWatcher {
  /** Resolves with the server timestamp of the first frame after now that differs from the current picture. */
  nextChange(): Promise<number>;
  close(): void;
}

function jpegWatcher(source: MediaSource): TChangeWatcher {
  return {
    nextChange() {
      const previous = source.latestKeyframe()?.data;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          unsubscribe();
          reject(new Error('no frame'));
        }, CLICK_TIMEOUT_MS);
        const unsubscribe = source.subscribe((chunk) => {
          if (previous && Buffer.from(chunk.data).equals(previous)) return;
          clearTimeout(timer);
          unsubscribe();
          resolve(chunk.timestamp);
        });
      });
    },
    close() {},
  };
}

function h264Watcher(source: MediaSource): TChangeWatcher {
  const decoder: ChildProcess = spawn(
    'ffmpeg',
    [
      // No -fflags nobuffer: it loses the first keyframe, and every picture after it would be matched wrongly.
      ...['-hide_banner', '-v', 'error', '-flags', 'low_delay', '-threads', '1'],
      ...['-probesize', '32', '-analyzeduration', '0', '-f', 'h264', '-i', 'pipe:0'],
      ...['-vf', 'crop=iw/2:ih/2,scale=16:9', '-pix_fmt', 'gray', '-fps_mode', 'passthrough'],
      ...['-flush_packets', '1', '-f', 'rawvideo', 'pipe:1'],
    ],
    { stdio: ['pipe', 'pipe', 'ignore'] },
  );
  const pending: number[] = [];
  let started = false;
  let luma: number | undefined;
  let waiter: { from: number; resolve: (timestamp: number) => void } | undefined;
  let bytes = Buffer.alloc(0);
  decoder.stdout!.on('data', (data: Buffer) => {
    bytes = Buffer.concat([bytes, data]);
    while (bytes.length >= 144) {
      const picture = bytes.subarray(0, 144);
      bytes = bytes.subarray(144);
      const timestamp = pending.shift()!;
      const value = picture.reduce((sum, pixel) => sum + pixel, 0) / 144;
      if (waiter && luma !== undefined && Math.abs(value - waiter.from) > 8) {
        waiter.resolve(timestamp);
        waiter = undefined;
      }
      luma = value;
    }
  });
  decoder.stdin!.on('error', () => {});
  const unsubscribe = source.subscribe((chunk) => {
    if (!started && !chunk.keyframe) return;
    started = true;
    pending.push(chunk.timestamp);
    decoder.stdin!.write(chunk.data);
  });
  return {
    nextChange() {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiter = undefined;
          reject(new Error('no frame'));
        }, CLICK_TIMEOUT_MS);
        waiter = {
          from: luma ?? 0,
          resolve: (timestamp) => {
            clearTimeout(timer);
            resolve(timestamp);
          },
        };
      });
    },
    close() {
      unsubscribe();
      decoder.kill('SIGKILL');
    },
  };
}

async function measureLatency(
  session: ChromiumRoomSession,
  watcher: TChangeWatcher,
): Promise<{ latencies: number[]; missed: number }> {
  const latencies: number[] = [];
  let missed = 0;
  await sleep(2500); // the page has loaded and, on H.264, the decoder has its first keyframe
  for (let i = 0; i < CLICKS; i++) {
    // Spread the presses over the button so consecutive runs do not line up with each other.
    const x = 0.3 + Math.random() * 0.4;
    const y = 0.3 + Math.random() * 0.4;
    const changed = watcher.nextChange();
    const started = performance.now();
    const press = { type: 'input/pointer', x, y, button: 'left', clickCount: 1 };
    await session.applyInput(ZRoomInput.parse({ ...press, action: 'down', buttons: 1 }));
    try {
      latencies.push((await changed) - started);
    } catch {
      missed++;
    }
    await session.applyInput(ZRoomInput.parse({ ...press, action: 'up', buttons: 0 }));
    // Let the picture settle so the next press is measured from a quiet screen.
    await sleep(250 + Math.random() * 100);
  }
  return { latencies, missed };
}

interface TRoomResult {
  fps: number;
  bitsPerSecond: number;
  cpuPercent: number;
  pssBytes: number;
  latencies: number[];
  missed: number;
}

/** CPU seconds and memory of everything the room runs: its browser's process tree and its media processes. */
async function roomUsage(engine: ChromiumRoomEngine, roomId: string) {
  const roots = [engine.browserPid(roomId)!, ...engine.mediaPids(roomId)];
  const usages = await Promise.all(roots.map((pid) => treeUsage(pid)));
  return {
    cpuSeconds: usages.reduce((sum, usage) => sum + usage.cpuSeconds, 0),
    pssBytes: usages.reduce((sum, usage) => sum + usage.pssBytes, 0),
  };
}

function newEngine(path: TMediaPath, capacity: number, pages: TTestPages, dataDir: string) {
  return new ChromiumRoomEngine({
    chromiumPath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    roomsDataDir: dataDir,
    capacity,
    media: path,
    egress: { start: startEgressProxy, allow: [pages.hostPort] },
  });
}

async function run(path: TMediaPath, fps: number, roomCount: number) {
  const pages = await startTestPages();
  const dataDir = await mkdtemp(join(tmpdir(), 'rooms-bench-'));
  const engine = newEngine(path, roomCount, pages, dataDir);
  try {
    const ids = Array.from({ length: roomCount }, (_, index) => `bench-${path}-${fps}-${roomCount}-${index}`);
    await Promise.all(
      ids.map((roomId) =>
        engine.start({
          roomId,
          width: WIDTH,
          height: HEIGHT,
          maxFrameRate: fps,
          videoBitrateKbps: BITRATE_KBPS,
          startUrl: pages.url('/animated'),
          keepData: false,
          autoCloseMs: null,
        }),
      ),
    );
    const sessions = ids.map((roomId) => engine.session(roomId)!);

    // Phase 1: an animated page in every room; one viewer each counts pictures and bytes (picture + sound).
    const counters = sessions.map(() => ({ frames: 0, bytes: 0 }));
    const unsubscribes = sessions.flatMap((session, index) => [
      session.video.subscribe((chunk) => {
        counters[index]!.frames++;
        counters[index]!.bytes += chunk.data.byteLength;
      }),
      ...(session.audio
        ? [session.audio.subscribe((chunk) => (counters[index]!.bytes += chunk.data.byteLength))]
        : []),
    ]);
    await sleep(2000); // start-up, first paints and the encoders' start are not the steady state
    const cpuBefore = await Promise.all(ids.map((roomId) => roomUsage(engine, roomId)));
    const nodeBefore = process.cpuUsage();
    const cpuStarted = performance.now();
    // Counted from here: reading /proc above takes a while on a busy machine, and its frames are not in the window.
    for (const counter of counters) Object.assign(counter, { frames: 0, bytes: 0 });
    const started = performance.now();
    await sleep(SECONDS * 1000);
    const elapsed = (performance.now() - started) / 1000;
    const delivered = counters.map((counter) => ({ ...counter }));
    const nodeCpu = process.cpuUsage(nodeBefore);
    const usageAfter = await Promise.all(ids.map((roomId) => roomUsage(engine, roomId)));
    const cpuElapsed = (performance.now() - cpuStarted) / 1000;

    // Phase 2: a still page whose button changes colour on press; every room is pressed at the same time.
    await Promise.all(sessions.map((session) => session.navigate(pages.url('/button'))));
    const watchers = sessions.map((session) =>
      session.video.codec === 'h264' ? h264Watcher(session.video) : jpegWatcher(session.video),
    );
    const latency = await Promise.all(
      sessions.map((session, index) => measureLatency(session, watchers[index]!)),
    );
    for (const watcher of watchers) watcher.close();
    for (const unsubscribe of unsubscribes) unsubscribe();

    const results: TRoomResult[] = sessions.map((_, index) => ({
      fps: delivered[index]!.frames / elapsed,
      bitsPerSecond: (delivered[index]!.bytes * 8) / elapsed,
      cpuPercent: ((usageAfter[index]!.cpuSeconds - cpuBefore[index]!.cpuSeconds) / cpuElapsed) * 100,
      pssBytes: usageAfter[index]!.pssBytes,
      ...latency[index]!,
    }));
    return { results, nodeCpuPercent: ((nodeCpu.user + nodeCpu.system) / 1e6 / cpuElapsed) * 100 };
  } finally {
    await engine.close();
    await pages.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * Picture-to-sound offset on the H.264 path: a page that turns white and starts a beep in the same task, once a
 * second. The frame that turns white and the packet that turns loud are found by decoding both; the offset is the
 * difference of their server timestamps (positive: the sound is stamped later than the picture).
 */
async function avOffset(fps: number): Promise<number[]> {
  const pages = await startTestPages();
  const dataDir = await mkdtemp(join(tmpdir(), 'rooms-bench-av-'));
  const engine = newEngine('h264', 1, pages, dataDir);
  try {
    await engine.start({
      roomId: 'bench-av',
      width: WIDTH,
      height: HEIGHT,
      maxFrameRate: fps,
      videoBitrateKbps: BITRATE_KBPS,
      startUrl: pages.url('/flash'),
      keepData: false,
      autoCloseMs: null,
    });
    const session = engine.session('bench-av')!;
    const video: TMediaChunk[] = [];
    const audio: TMediaChunk[] = [];
    const stops = [
      session.video.subscribe((chunk) => video.push(chunk)),
      session.audio!.subscribe((chunk) => audio.push(chunk)),
    ];
    await sleep(12_000);
    for (const stop of stops) stop();
    const fromKey = video.slice(video.findIndex((chunk) => chunk.keyframe));
    const { luma } = await decodeH264(fromKey.map((chunk) => chunk.data));
    const levels = await opusLoudness(audio.map((chunk) => chunk.data));
    const rising = (values: number[], threshold: number) =>
      values.flatMap((value, index) =>
        index > 0 && values[index - 1]! < threshold && value >= threshold ? [index] : [],
      );
    const flashes = rising(luma, 128).map((index) => fromKey[index]!.timestamp);
    const beeps = rising(levels, 0.1).map((index) => audio[index]!.timestamp);
    return flashes.flatMap((flash) => {
      const beep = beeps.find((candidate) => Math.abs(candidate - flash) < 500);
      return beep === undefined ? [] : [beep - flash];
    });
  } finally {
    await engine.close();
    await pages.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

console.log(
  `stream bench: ${WIDTH}×${HEIGHT}, H.264 cap ${BITRATE_KBPS} kbit/s + Opus 96 kbit/s, ${SECONDS} s animated + ` +
    `${CLICKS} presses per room, ${availableParallelism()} CPUs, Node ${process.version}, load ${loadavg()
      .map((value) => value.toFixed(1))
      .join(' ')}`,
);
console.log(
  '| path       | fps cap | rooms | fps/room (min) | input→frame p50 |  p95   | Mbit/s per viewer | CPU/room | memory/room | server CPU |',
);
console.log(
  '| ---------- | ------: | ----: | -------------: | --------------: | -----: | ----------------: | -------: | ----------: | ---------: |',
);
for (const fps of FRAME_RATES) {
  for (const roomCount of ROOM_COUNTS) {
    for (const path of PATHS) {
      const { results, nodeCpuPercent } = await run(path, fps, roomCount);
      const latencies = results.flatMap((result) => result.latencies).sort((a, b) => a - b);
      const missed = results.reduce((sum, result) => sum + result.missed, 0);
      const rates = results.map((result) => result.fps);
      console.log(
        `| ${[
          path.padEnd(10),
          String(fps).padStart(7),
          String(roomCount).padStart(5),
          `${mean(rates).toFixed(1)} (${Math.min(...rates).toFixed(1)})`.padStart(14),
          `${percentile(latencies, 50).toFixed(0)} ms`.padStart(15),
          `${percentile(latencies, 95).toFixed(0)} ms`.padStart(6),
          (mean(results.map((result) => result.bitsPerSecond)) / 1e6).toFixed(2).padStart(17),
          `${mean(results.map((result) => result.cpuPercent)).toFixed(0)}%`.padStart(8),
          `${(mean(results.map((result) => result.pssBytes)) / 1024 ** 2).toFixed(0)} MB`.padStart(11),
          `${nodeCpuPercent.toFixed(0)}%`.padStart(10),
        ].join(
          ' | ',
        )} |${missed > 0 ? ` (${missed} presses showed no change within ${CLICK_TIMEOUT_MS} ms)` : ''}`,
      );
    }
  }
}
if (PATHS.includes('h264')) {
  for (const fps of FRAME_RATES) {
    const offsets = await avOffset(fps);
    console.log(
      `A/V offset at ${fps} fps (sound − picture, server timestamps, ${offsets.length} flashes): median ` +
        `${median(offsets).toFixed(0)} ms, range ${Math.min(...offsets).toFixed(0)}…${Math.max(...offsets).toFixed(0)} ms`,
    );
  }
}
