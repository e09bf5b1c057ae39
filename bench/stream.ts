// What one server delivers per room on each media path (the CDP screencast and H.264 + Opus) when 1, 2 and 4
// rooms stream at once, at 30 and 60 fps: frames per second reaching a participant, the time from the
// participant's input to the first frame showing its effect, bits per second per participant, the CPU and memory
// each room costs (its Chromium and, on the H.264 path, its Xvfb, pulseaudio and ffmpeg processes), and on the
// H.264 path the offset between picture and sound. The participant is a real WebSocket client on loopback,
// joined to the room's RoomHub (the relay's own code, with its framing and backpressure) and declaring the
// decoders a WebCodecs browser declares; its input goes in through RoomSession.applyInput, the hub's path into
// CDP. Method: bench/README.md.
// Run: npm run bench:stream [-- seconds=10 clicks=20 width=1280 height=720 bitrate=2000 paths=screencast,h264
//      fps=30,60 rooms=1,2,4]
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import type { Socket } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  decodeMediaFrame,
  MEDIA_FRAME_HEADER_BYTES,
  type TMediaCodecName,
  type TMediaFrame,
  ZRoomInput,
} from '@rooms/api/room-protocol';
import WebSocket, { WebSocketServer } from 'ws';
import { startEgressProxy } from '../apps/server/src/rooms/egress/egress-proxy';
import { ChromiumRoomEngine, type TMediaPath } from '../apps/server/src/rooms/engine/chromium-room-engine';
import type { ChromiumRoomSession } from '../apps/server/src/rooms/engine/chromium-room-session';
import { RoomHub } from '../apps/server/src/rooms/hub/room-hub';
import { SocketPeer } from '../apps/server/src/rooms/hub/socket-peer';
import { treeUsage } from '../apps/server/src/rooms/process-tree';
import type { TMediaChunk } from '../apps/server/src/rooms/room-session';
import { decodeH264, opusLoudness } from '../apps/server/src/testing/rooms/decode-check';
import { startTestPages, type TTestPages } from '../apps/server/src/testing/rooms/test-pages';

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
/** What a browser with WebCodecs declares in member/join. */
const WEBCODECS: TMediaCodecName[] = ['h264', 'opus', 'jpeg'];

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

/** A frame as the participant received it, with its arrival time on this process's clock. */
interface TReceived {
  frame: TMediaFrame;
  arrivedAt: number;
}

/**
 * One participant of one room: a WebSocket client on loopback whose server end joins the room's hub, as the
 * relay's socket handler does. Everything it measures is what arrived on its socket.
 */
class Participant {
  private readonly listeners = new Set<(received: TReceived) => void>();
  latestPicture: TReceived | undefined;

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data, isBinary) => {
      if (!isBinary) return;
      const received = { frame: decodeMediaFrame(data as Buffer), arrivedAt: performance.now() };
      if (received.frame.codec !== 'opus') this.latestPicture = received;
      for (const listener of this.listeners) listener(received);
    });
  }

  static async join(relay: TRelay, hub: RoomHub, decoders: TMediaCodecName[]): Promise<Participant> {
    relay.pending.push((socket, connection) => {
      const result = hub.join(
        new SocketPeer(socket, connection),
        { userId: 'bench-owner' },
        'bench',
        decoders,
      );
      if (!result.ok) throw new Error(`the bench participant was refused: ${result.code}`);
    });
    const socket = new WebSocket(relay.url);
    await once(socket, 'open');
    return new Participant(socket);
  }

  subscribe(listener: (received: TReceived) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    this.socket.close();
  }
}

/** A loopback WebSocket server whose connections are handed, in order, to the joins waiting for them. */
interface TRelay {
  url: string;
  pending: ((socket: WebSocket, connection: Socket) => void)[];
  close(): Promise<void>;
}

async function startRelay(): Promise<TRelay> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(server, 'listening');
  const relay: TRelay = {
    url: `ws://127.0.0.1:${(server.address() as { port: number }).port}`,
    pending: [],
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  server.on('connection', (socket, request) => relay.pending.shift()?.(socket, request.socket));
  return relay;
}

/**
 * Tells when the participant's picture changes. JPEG frames are compared byte for byte (a still page sends
 * nothing until it changes); H.264 frames are decoded by a live ffmpeg into a tiny grey picture of the page's
 * middle, and each decoded picture is matched back to its access unit's arrival (no B-frames: one picture per
 * unit, in order), so the decoder's own delay is not counted.
 */
interface TChangeWatcher {
  /** Resolves with the arrival time of the first frame after now that differs from the current picture. */
  nextChange(): Promise<number>;
  close(): void;
}

function jpegWatcher(participant: Participant): TChangeWatcher {
  return {
    nextChange() {
      const previous = participant.latestPicture?.frame.data;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          unsubscribe();
          reject(new Error('no frame'));
        }, CLICK_TIMEOUT_MS);
        const unsubscribe = participant.subscribe(({ frame, arrivedAt }) => {
          if (frame.codec !== 'jpeg') return;
          if (previous && Buffer.from(frame.data).equals(previous)) return;
          clearTimeout(timer);
          unsubscribe();
          resolve(arrivedAt);
        });
      });
    },
    close() {},
  };
}

function h264Watcher(participant: Participant): TChangeWatcher {
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
  let waiter: { from: number; resolve: (arrivedAt: number) => void } | undefined;
  let bytes = Buffer.alloc(0);
  decoder.stdout!.on('data', (data: Buffer) => {
    bytes = Buffer.concat([bytes, data]);
    while (bytes.length >= 144) {
      const picture = bytes.subarray(0, 144);
      bytes = bytes.subarray(144);
      const arrivedAt = pending.shift()!;
      const value = picture.reduce((sum, pixel) => sum + pixel, 0) / 144;
      if (waiter && luma !== undefined && Math.abs(value - waiter.from) > 8) {
        waiter.resolve(arrivedAt);
        waiter = undefined;
      }
      luma = value;
    }
  });
  decoder.stdin!.on('error', () => {});
  const unsubscribe = participant.subscribe(({ frame, arrivedAt }) => {
    if (frame.codec !== 'h264') return;
    if (!started && !frame.keyframe) return;
    started = true;
    pending.push(arrivedAt);
    decoder.stdin!.write(frame.data);
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
          resolve: (arrivedAt) => {
            clearTimeout(timer);
            resolve(arrivedAt);
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

/**
 * CPU seconds and memory of everything the room runs: its browser's process tree, its media processes and its
 * sandbox's own (the namespace's first process and the egress forwarder with its connections).
 */
async function roomUsage(engine: ChromiumRoomEngine, roomId: string) {
  const sandboxRoot = engine.sandbox(roomId)?.rootPid;
  const roots = [
    engine.browserPid(roomId)!,
    ...engine.mediaPids(roomId),
    ...(sandboxRoot === undefined ? [] : [sandboxRoot]),
  ];
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
  const relay = await startRelay();
  const dataDir = await mkdtemp(join(tmpdir(), 'rooms-bench-'));
  const engine = newEngine(path, roomCount, pages, dataDir);
  const cleanups: (() => void)[] = [];
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
    const hubs = sessions.map(
      (session) =>
        new RoomHub({
          room: {
            id: session.roomId,
            ownerId: 'bench-owner',
            ownerName: 'bench',
            maxConnections: 10,
            password: null,
            isPublic: false,
            maxFrameRate: fps,
          },
          session,
          participantsChanged: (count) => engine.participantsChanged(session.roomId, count),
          statsIntervalMs: 0,
        }),
    );
    cleanups.push(() => {
      for (const hub of hubs) hub.close();
    });
    const participants: Participant[] = [];
    for (const hub of hubs) participants.push(await Participant.join(relay, hub, WEBCODECS));
    cleanups.push(() => {
      for (const participant of participants) participant.close();
    });

    // Phase 1: an animated page in every room; its participant counts pictures and bytes (picture + sound, as
    // framed on the socket).
    const counters = sessions.map(() => ({ frames: 0, bytes: 0 }));
    for (const [index, participant] of participants.entries()) {
      participant.subscribe(({ frame }) => {
        if (frame.codec !== 'opus') counters[index]!.frames++;
        counters[index]!.bytes += frame.data.byteLength + MEDIA_FRAME_HEADER_BYTES;
      });
    }
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
    const watchers = participants.map((participant, index) =>
      sessions[index]!.video.codec === 'h264' ? h264Watcher(participant) : jpegWatcher(participant),
    );
    const latency = await Promise.all(
      sessions.map((session, index) => measureLatency(session, watchers[index]!)),
    );
    for (const watcher of watchers) watcher.close();

    const results: TRoomResult[] = sessions.map((_, index) => ({
      fps: delivered[index]!.frames / elapsed,
      bitsPerSecond: (delivered[index]!.bytes * 8) / elapsed,
      cpuPercent: ((usageAfter[index]!.cpuSeconds - cpuBefore[index]!.cpuSeconds) / cpuElapsed) * 100,
      pssBytes: usageAfter[index]!.pssBytes,
      ...latency[index]!,
    }));
    return { results, nodeCpuPercent: ((nodeCpu.user + nodeCpu.system) / 1e6 / cpuElapsed) * 100 };
  } finally {
    for (const cleanup of cleanups.reverse()) cleanup();
    await relay.close();
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
    // The first seconds are start-up (the encoders, the page's audio output opening), not the steady state.
    const steadyFrom = performance.now() + 3000;
    await sleep(15_000);
    for (const stop of stops) stop();
    const fromKey = video.slice(video.findIndex((chunk) => chunk.keyframe));
    const { luma } = await decodeH264(fromKey.map((chunk) => chunk.data));
    const levels = await opusLoudness(audio.map((chunk) => chunk.data));
    const rising = (values: number[], threshold: number) =>
      values.flatMap((value, index) =>
        index > 0 && values[index - 1]! < threshold && value >= threshold ? [index] : [],
      );
    const flashes = rising(luma, 128)
      .map((index) => fromKey[index]!.timestamp)
      .filter((timestamp) => timestamp >= steadyFrom);
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
