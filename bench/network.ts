// What viewers on real, shaped links receive from a room showing a looping 720p30 video with sound (issue 27).
// One room (ChromiumRoomEngine, H.264 + Opus) plays a clip the bench makes with ffmpeg; its relay is the
// server's own (Fastify, the socket handlers' registry, RoomRelay, RoomHub), reached with room tickets as a
// guest's browser reaches it. Each viewer is a Node process (./network-viewer.ts) in its own network namespace,
// joined to this one by a veth pair whose host end shapes the viewer's downlink with tbf; one more viewer on
// plain loopback is the reference (what the room sends). One link drops from 5 to 1 Mbit/s mid-run and comes
// back. Per viewer: pictures shown per second, freezes, the share of the room's sound received, the layer over
// time, the delay from the server's timestamp to arrival. Method and results: bench/README.md.
// Run (as root): npm run bench:network [-- seconds=40 links=0.5,1,2,5,20 change=5:1 drop=15 recover=25
//      bitrate=2500 latency=80 acks=on raw=<file for every viewer's frames, as JSON>]
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import websocket from '@fastify/websocket';
import { roomSocketPath } from '@rooms/api/room-protocol';
import Fastify from 'fastify';
import { startEgressProxy } from '../apps/server/src/rooms/egress/egress-proxy';
import { ChromiumRoomEngine } from '../apps/server/src/rooms/engine/chromium-room-engine';
import { treeUsage } from '../apps/server/src/rooms/process-tree';
import { createMemoryRateLimiter } from '../apps/server/src/services/rate-limit/memory-rate-limiter';
import { MemoryOnceStore } from '../apps/server/src/testing/memory-once-store';
import { engineLink } from '../apps/server/src/ws/default-ports';
import { registerSocketHandlers } from '../apps/server/src/ws/registry';
import type { TRelayRoom } from '../apps/server/src/ws/relay-ports';
import { RoomRelay } from '../apps/server/src/ws/room-relay';
import type { TFrameRecord, TViewerReport } from './network-viewer';

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [name, value = ''] = arg.split('=');
    return [name, value];
  }),
);
const number = (name: string, fallback: number) => (args[name] ? Number(args[name]) : fallback);

const SECONDS = number('seconds', 40);
const LINK_RATES = (args.links ? args.links.split(',') : ['0.5', '1', '2', '5', '20']).map(Number);
/** The link that changes mid-run, from:to Mbit/s; `change=none` leaves it out. */
const CHANGE =
  args.change === 'none' ? null : ((args.change ?? '5:1').split(':').map(Number) as [number, number]);
const DROP_S = number('drop', 15);
const RECOVER_S = number('recover', 25);
/** The room's H.264 cap: a 720p30 room's default on the Free plan (its plan's maximum). */
const BITRATE_KBPS = number('bitrate', 2500);
/** tbf's queue, in ms at the link's rate: what a home router or modem buffers before it drops. */
const QUEUE_MS = number('latency', 80);
/** `acks=off`: the viewers send no stream/ack, as clients before layers (the server then sends them everything). */
const ACKS = args.acks !== 'off';
const WIDTH = 1280;
const HEIGHT = 720;
const FPS = 30;
/** After the measured window, time for what is still on the way to arrive (sound is counted by timestamp). */
const DRAIN_MS = 2000;
/** Freezes shorter than this are not counted; "after 5 s" leaves out the start. */
const FREEZE_MS = 500;
const SETTLE_S = 5;
/** Names of everything this bench creates in the system (namespaces, veth ends), so leftovers can be found. */
const PREFIX = 'rnbench';
/** Viewer i's link is 10.213.i.0/30: .1 is the host (the server's address for it), .2 the viewer. */
const SUBNET = '10.213';
const ROOM_ID = 'bench-network';
const PUBLIC_URL = 'http://rooms.bench.test';
const VIEWER_SCRIPT = fileURLToPath(new URL('./network-viewer.ts', import.meta.url));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not ${what} within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The clip: ~10 s of 1280×720 at 30 fps with motion all over the picture (drifting colour gradients with film
// grain, a Game of Life field and a test pattern with a running clock, both moving) and continuous sound (two
// voices stepping through notes, with tremolo), as WebM (VP8 + Opus), made once and kept in the temp directory.

const CLIP_SECONDS = 10;
const CLIP_ARGS = [
  ...['-hide_banner', '-v', 'error', '-y'],
  ...['-f', 'lavfi', '-i', `gradients=size=1280x720:rate=30:speed=0.03:nb_colors=6:duration=${CLIP_SECONDS}`],
  ...['-f', 'lavfi', '-i', 'testsrc2=size=480x270:rate=30'],
  ...[
    '-f',
    'lavfi',
    '-i',
    'life=size=320x180:rate=30:mold=10:ratio=0.2:death_color=#203040:life_color=#e0c040',
  ],
  '-f',
  'lavfi',
  '-i',
  "aevalsrc=exprs='0.25*sin(2*PI*(220+55*mod(floor(t*4)\\,5))*t)*(0.6+0.4*sin(2*PI*3*t))|" +
    `0.25*sin(2*PI*(330+44*mod(floor(t*3)\\,4))*t)*(0.6+0.4*cos(2*PI*2*t))':s=48000:d=${CLIP_SECONDS}`,
  '-filter_complex',
  '[0:v]format=yuv420p,noise=alls=10:allf=t[bg];[2:v]scale=640:360:flags=neighbor,format=yuv420p[life];' +
    "[bg][life]overlay=x='(W-w)*(0.5+0.5*cos(t*0.8))':y='(H-h)*(0.5+0.5*sin(t*1.3))'[mid];" +
    "[mid][1:v]overlay=x='(W-w)*(0.5+0.5*sin(t*1.7))':y='(H-h)*(0.5+0.5*cos(t*1.1))':shortest=1,format=yuv420p[v]",
  ...['-map', '[v]', '-map', '3:a'],
  ...[
    '-c:v',
    'libvpx',
    '-deadline',
    'realtime',
    '-cpu-used',
    '16',
    '-threads',
    '2',
    '-b:v',
    '4M',
    '-g',
    '30',
  ],
  ...['-c:a', 'libopus', '-b:a', '128k', '-t', String(CLIP_SECONDS), '-f', 'webm'],
];

export async function ensureClip(): Promise<string> {
  const key = createHash('sha256').update(CLIP_ARGS.join(' ')).digest('hex').slice(0, 12);
  const path = join(tmpdir(), `rooms-bench-network-${key}.webm`);
  if (existsSync(path)) return path;
  console.log(`making the clip (once): ${path}`);
  const child = spawn('ffmpeg', [...CLIP_ARGS, `${path}.part`], { stdio: ['ignore', 'ignore', 'inherit'] });
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0) throw new Error(`ffmpeg could not make the clip (exit ${code})`);
  await rename(`${path}.part`, path);
  return path;
}

/** The clip and a page that plays it full-window, looped, with sound, served on loopback (byte ranges too). */
export interface TClipPages {
  url: string;
  hostPort: string;
  waitForEvent(prefix: string, timeoutMs: number): Promise<string>;
  close(): Promise<void>;
}

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>network bench</title>
<style>html,body{margin:0;height:100%;overflow:hidden;background:#000}
video{position:fixed;inset:0;width:100%;height:100%;object-fit:fill}</style></head><body>
<video id="v" src="/clip.webm" autoplay loop playsinline></video>
<script>
const report = (name) => fetch('/event/' + encodeURIComponent(name));
const video = document.getElementById('v');
video.muted = false;
video.volume = 1;
video.addEventListener('playing', () => report('playing:' + (video.muted ? 'muted' : 'sound')), { once: true });
video.play().catch((error) => report('play-failed:' + error.name));
</script></body></html>`;

export async function startClipPages(clipPath: string): Promise<TClipPages> {
  const clip = await readFile(clipPath);
  const events: string[] = [];
  const server: Server = createServer((request, response) => {
    const path = request.url ?? '/';
    if (path.startsWith('/event/')) {
      events.push(decodeURIComponent(path.slice('/event/'.length)));
      response.writeHead(204).end();
      return;
    }
    if (path === '/clip.webm') {
      // Chromium reads media by byte ranges, and seeks back to the start with one on every loop.
      const range = /^bytes=(\d*)-(\d*)$/.exec(request.headers.range ?? '');
      const headers = { 'content-type': 'video/webm', 'accept-ranges': 'bytes' };
      if (!range) {
        response.writeHead(200, { ...headers, 'content-length': clip.length }).end(clip);
        return;
      }
      const start = range[1] ? Number(range[1]) : clip.length - Number(range[2]);
      const end = range[1] && range[2] ? Math.min(Number(range[2]), clip.length - 1) : clip.length - 1;
      if (start >= clip.length || start > end) {
        response.writeHead(416, { 'content-range': `bytes */${clip.length}` }).end();
        return;
      }
      response
        .writeHead(206, {
          ...headers,
          'content-length': end - start + 1,
          'content-range': `bytes ${start}-${end}/${clip.length}`,
        })
        .end(clip.subarray(start, end + 1));
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/`,
    hostPort: `127.0.0.1:${port}`,
    async waitForEvent(prefix, timeoutMs) {
      const until = performance.now() + timeoutMs;
      while (performance.now() < until) {
        const event = events.find((candidate) => candidate.startsWith(prefix));
        if (event) return event;
        await sleep(100);
      }
      throw new Error(
        `the room's page did not report ${prefix} within ${timeoutMs} ms (${events.join(', ')})`,
      );
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Links: a network namespace per viewer, a veth pair to it, tbf on the host end (the viewer's downlink).

interface TLink {
  label: string;
  /** null: the loopback reference, unshaped. */
  rateMbit: number | null;
  /** The rate it changes to at DROP_S and back from at RECOVER_S. */
  changeTo?: number;
  ns?: string;
  hostIf?: string;
  /** The host end's address: the server listens there for this viewer. */
  hostAddress: string;
}

const run = (command: string, commandArgs: string[]) =>
  execFileSync(command, commandArgs, { stdio: ['ignore', 'pipe', 'pipe'] }).toString();

/** tbf's bucket: 10 ms at the link's rate, at least 4 KiB (a few full-size packets: below that tbf stalls). */
const burstBytes = (rateMbit: number) => Math.max(4096, Math.round((rateMbit * 1e6 * 0.01) / 8));
const tbf = (rateMbit: number) => [
  ...['tbf', 'rate', `${Math.round(rateMbit * 1000)}kbit`],
  ...['burst', String(burstBytes(rateMbit)), 'latency', `${QUEUE_MS}ms`],
];

/** Removes every namespace and link this bench names, from this run or one that crashed. */
function removeLinks(): void {
  for (const line of run('ip', ['netns', 'list']).split('\n')) {
    const name = line.split(' ')[0];
    if (name?.startsWith(`${PREFIX}-`)) run('ip', ['netns', 'delete', name]);
  }
  for (const line of run('ip', ['-o', 'link', 'show']).split('\n')) {
    const name = /^\d+: ([^:@]+)/.exec(line)?.[1];
    if (!name?.startsWith(PREFIX)) continue;
    // A namespace goes away in the background, taking its veth pair with it: the host end may be gone by now.
    try {
      run('ip', ['link', 'delete', name]);
    } catch {}
  }
}

function addLink(index: number, link: TLink): void {
  const ns = `${PREFIX}-${index}`;
  const hostIf = `${PREFIX}${index}h`;
  const viewerIf = `${PREFIX}${index}v`;
  run('ip', ['netns', 'add', ns]);
  run('ip', ['link', 'add', hostIf, 'type', 'veth', 'peer', 'name', viewerIf, 'netns', ns]);
  run('ip', ['address', 'add', `${SUBNET}.${index}.1/30`, 'dev', hostIf]);
  run('ip', ['link', 'set', hostIf, 'up']);
  run('ip', ['-n', ns, 'address', 'add', `${SUBNET}.${index}.2/30`, 'dev', viewerIf]);
  run('ip', ['-n', ns, 'link', 'set', viewerIf, 'up']);
  run('ip', ['-n', ns, 'link', 'set', 'lo', 'up']);
  run('tc', ['qdisc', 'add', 'dev', hostIf, 'root', ...tbf(link.rateMbit!)]);
  Object.assign(link, { ns, hostIf, hostAddress: `${SUBNET}.${index}.1` });
}

function setRate(link: TLink, rateMbit: number): void {
  run('tc', ['qdisc', 'change', 'dev', link.hostIf!, 'root', ...tbf(rateMbit)]);
}

/** What tbf passed and dropped on the link's host end. */
function linkCounters(link: TLink): string {
  if (!link.hostIf) return '';
  const stats = run('tc', ['-s', 'qdisc', 'show', 'dev', link.hostIf]);
  const sent = Number(/Sent (\d+) bytes/.exec(stats)?.[1] ?? Number.NaN);
  const dropped = /dropped (\d+)/.exec(stats)?.[1] ?? '?';
  return `${link.label}: ${(sent / 1e6).toFixed(1)} MB sent, ${dropped} packets dropped`;
}

function checkPrerequisites(): void {
  if (process.getuid?.() !== 0) throw new Error('bench:network makes network namespaces: run it as root');
  for (const tool of [
    ['ip', '-V'],
    ['tc', '-V'],
    ['ffmpeg', '-version'],
  ]) {
    run(tool[0]!, tool.slice(1));
  }
  // Our /30s must not shadow a network this machine already uses.
  const taken = run('ip', ['-o', '-4', 'address', 'show'])
    .split('\n')
    .filter((line) => line.includes(` ${SUBNET}.`) && !/^\d+: rnbench/.test(line));
  if (taken.length > 0) throw new Error(`${SUBNET}.0.0/16 is in use here: ${taken.join('; ')}`);
}

// ---------------------------------------------------------------------------------------------------------------
// The room's server: the socket handlers' registry on a Fastify instance with the server's WebSocket options,
// listening on loopback (the reference) and on each link's host end, all handing their upgrades to one relay.

async function startRoomServer(engine: ChromiumRoomEngine, addresses: string[]) {
  const level = process.env.BENCH_LOG_LEVEL;
  const app = Fastify(level ? { logger: { level } } : { logger: false });
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  const room: TRelayRoom = {
    id: ROOM_ID,
    ownerId: 'bench-owner',
    ownerName: 'bench',
    maxConnections: 16,
    password: null,
    isPublic: false,
    maxFrameRate: FPS,
  };
  const relay = new RoomRelay({
    appSecret: 's'.repeat(40),
    directory: { find: async (roomId) => (roomId === ROOM_ID ? room : null) },
    link: engineLink(engine),
    rateLimiter: createMemoryRateLimiter(),
    spentTickets: new MemoryOnceStore(),
    log: app.log,
  });
  registerSocketHandlers(app, {
    relay,
    log: app.log,
    auth: {
      tickets: relay.tickets,
      sessionOfToken: async () => null,
      liveSessions: async (ids) => new Set(ids),
      originAllowed: (origin) => origin === PUBLIC_URL,
      tokenEntry: async () => null,
      now: Date.now,
    },
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as { port: number };
  const listeners = await Promise.all(
    addresses.map(async (address) => {
      const server = createServer((_request, response) => response.writeHead(404).end());
      server.on('upgrade', (request, socket, head) => app.server.emit('upgrade', request, socket, head));
      server.listen(port, address);
      await once(server, 'listening');
      return server;
    }),
  );
  return {
    /** A guest's ticket for one socket, and the address to open it on. */
    socketUrl(address: string, guest: string) {
      const { ticket } = relay.tickets.issue(ROOM_ID, null, Date.now(), guest);
      return `ws://${address}:${port}${roomSocketPath(ROOM_ID)}?ticket=${encodeURIComponent(ticket)}`;
    },
    async close() {
      for (const listener of listeners) listener.closeAllConnections();
      await Promise.all(listeners.map((listener) => new Promise((resolve) => listener.close(resolve))));
      relay.dispose();
      await app.close();
    },
  };
}

/** CPU seconds of everything the room runs: its browser, its media processes (every layer's encoder) and sandbox. */
async function roomCpuSeconds(engine: ChromiumRoomEngine): Promise<number> {
  const sandboxRoot = engine.sandbox(ROOM_ID)?.rootPid;
  const roots = [
    engine.browserPid(ROOM_ID)!,
    ...engine.mediaPids(ROOM_ID),
    ...(sandboxRoot === undefined ? [] : [sandboxRoot]),
  ];
  const usages = await Promise.all(roots.map((pid) => treeUsage(pid)));
  return usages.reduce((sum, usage) => sum + usage.cpuSeconds, 0);
}

// ---------------------------------------------------------------------------------------------------------------
// Viewers

interface TViewer {
  link: TLink;
  child: ChildProcess;
  joined: Promise<void>;
  report: Promise<TViewerReport>;
}

const tsxLoader = import.meta.resolve('tsx');

function startViewer(link: TLink, url: string, nickname: string): TViewer {
  // The node that runs this bench (npm run: Node 24 from node_modules), with tsx as its loader: one process.
  const node = [process.execPath, '--import', tsxLoader, VIEWER_SCRIPT];
  const viewerArgs = [
    `url=${url}`,
    `origin=${PUBLIC_URL}`,
    `nickname=${nickname}`,
    `acks=${ACKS ? 'on' : 'off'}`,
  ];
  const child = link.ns
    ? spawn('ip', ['netns', 'exec', link.ns, ...node, ...viewerArgs], { stdio: ['pipe', 'pipe', 'inherit'] })
    : spawn(node[0]!, [...node.slice(1), ...viewerArgs], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  let joined!: () => void;
  let reported!: (report: TViewerReport) => void;
  let failed!: (error: Error) => void;
  const joinedPromise = new Promise<void>((resolve, reject) => {
    joined = resolve;
    failed = reject;
  });
  const reportPromise = new Promise<TViewerReport>((resolve, reject) => {
    reported = resolve;
    child.once('exit', (code) => reject(new Error(`viewer ${link.label} exited (${code}) without a report`)));
  });
  reportPromise.catch(() => {});
  lines.on('line', (line) => {
    const message = JSON.parse(line) as { type: string; report?: TViewerReport };
    if (message.type === 'joined') joined();
    else if (message.type === 'report') reported(message.report!);
    else {
      console.error(`viewer ${link.label}: ${line}`);
      if (message.type === 'refused') failed(new Error(`viewer ${link.label} was refused: ${line}`));
    }
  });
  return { link, child, joined: joinedPromise, report: reportPromise };
}

// ---------------------------------------------------------------------------------------------------------------
// Figures

interface TFrame {
  /** Arrival on the server's clock. */
  at: number;
  codec: string;
  keyframe: boolean;
  bytes: number;
  width: number;
  height: number;
  timestamp: number;
  decodable: boolean;
  /** Sound only: how much sound the packet holds. */
  durationMs: number;
}

function framesOf(report: TViewerReport): TFrame[] {
  return report.frames.map(
    ([at, codec, keyframe, bytes, width, height, timestamp, decodable, durationMs]: TFrameRecord) => ({
      at: at + report.clockOffset,
      codec,
      keyframe: keyframe === 1,
      bytes,
      width,
      height,
      timestamp,
      decodable: decodable === 1,
      durationMs,
    }),
  );
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/** A stretch without a new picture: from when (server clock), how long. */
interface TFreeze {
  at: number;
  ms: number;
}

/** The gaps longer than `over` between pictures shown in [from, to], counting only their time inside it. */
function freezes(shown: number[], from: number, to: number, over: number): TFreeze[] {
  const points = [from, ...shown.filter((at) => at > from && at < to), to];
  const gaps: TFreeze[] = [];
  for (let i = 1; i < points.length; i++) {
    const gap = points[i]! - points[i - 1]!;
    if (gap > over) gaps.push({ at: points[i - 1]!, ms: gap });
  }
  return gaps;
}

const frozenMs = (gaps: TFreeze[]) => gaps.reduce((sum, gap) => sum + gap.ms, 0);
const longest = (gaps: TFreeze[]) => Math.max(0, ...gaps.map((gap) => gap.ms));

type TSpan = [number, number];

/**
 * The time in [from, to] the sound packets stamped in it cover, as merged spans: packets of any layer's sound
 * (10 or 20 ms long), overlaps counted once; holes up to 5 ms are the timestamps' own jitter, not a lost packet.
 */
function soundSpans(frames: TFrame[], from: number, to: number): TSpan[] {
  const packets = frames
    .filter((frame) => frame.codec === 'opus' && frame.timestamp >= from && frame.timestamp < to)
    .map((frame): TSpan => [frame.timestamp, Math.min(to, frame.timestamp + frame.durationMs)])
    .sort((a, b) => a[0] - b[0]);
  const spans: TSpan[] = [];
  for (const [start, end] of packets) {
    const last = spans.at(-1);
    if (last && start - last[1] <= 5) last[1] = Math.max(last[1], end);
    else spans.push([start, end]);
  }
  return spans;
}

const spansLength = (spans: TSpan[]) => spans.reduce((sum, [start, end]) => sum + end - start, 0);

/** How long both span lists cover at once. */
function overlap(a: TSpan[], b: TSpan[]): number {
  let total = 0;
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    total += Math.max(0, Math.min(a[i]![1], b[j]![1]) - Math.max(a[i]![0], b[j]![0]));
    if (a[i]![1] < b[j]![1]) i++;
    else j++;
  }
  return total;
}

interface TTimes {
  start: number;
  end: number;
  drop?: number;
  recover?: number;
}

interface TFigures {
  fps: number;
  fpsSettled: number;
  freezes: TFreeze[];
  freezesSettled: TFreeze[];
  /** Sound, ms: of what the loopback viewer received (all the room sent), what this viewer received too. */
  soundMs: number;
  soundSentMs: number;
  soundPackets: number;
  pictureDelay: [number, number];
  soundDelay: [number, number];
  mbps: number;
  /** Share of the pictures shown after the first seconds at the room's full size. */
  fullShare: number;
  shown: TFrame[];
}

function figures(frames: TFrame[], reference: TFrame[], times: TTimes, full: string): TFigures {
  const inWindow = frames.filter((frame) => frame.at >= times.start && frame.at <= times.end);
  const pictures = inWindow.filter((frame) => frame.codec === 'h264' || frame.codec === 'jpeg');
  const shown = pictures.filter((frame) => frame.decodable);
  const shownAt = shown.map((frame) => frame.at);
  const settled = times.start + SETTLE_S * 1000;
  const shownSettled = shown.filter((frame) => frame.at >= settled);
  const delays = (list: TFrame[]) => list.map((frame) => frame.at - frame.timestamp);
  const sound = inWindow.filter((frame) => frame.codec === 'opus');
  const sent = soundSpans(reference, times.start, times.end);
  const seconds = (times.end - times.start) / 1000;
  return {
    fps: shown.length / seconds,
    fpsSettled: shownSettled.length / (seconds - SETTLE_S),
    freezes: freezes(shownAt, times.start, times.end, FREEZE_MS),
    freezesSettled: freezes(shownAt, settled, times.end, FREEZE_MS),
    // By timestamp: a packet stamped inside the window counts whenever it arrived (up to the drain).
    soundMs: overlap(soundSpans(frames, times.start, times.end), sent),
    soundSentMs: spansLength(sent),
    soundPackets: frames.filter(
      (frame) => frame.codec === 'opus' && frame.timestamp >= times.start && frame.timestamp < times.end,
    ).length,
    pictureDelay: [percentile(delays(pictures), 50), percentile(delays(pictures), 95)],
    soundDelay: [percentile(delays(sound), 50), percentile(delays(sound), 95)],
    mbps: (inWindow.reduce((sum, frame) => sum + frame.bytes, 0) * 8) / seconds / 1e6,
    fullShare:
      shownSettled.filter((frame) => `${frame.width}x${frame.height}` === full).length /
      Math.max(1, shownSettled.length),
    shown,
  };
}

/** The share of the room's sound this viewer received, by the time its packets cover. */
const soundShare = (result: TFigures) => result.soundMs / Math.max(1, result.soundSentMs);

/** The picture sizes shown over time, e.g. "1280x720 → 640x360 at 16.2 s → 1280x720 at 31.0 s". */
function sizesOverTime(shown: TFrame[], start: number): string {
  const parts: string[] = [];
  let current = '';
  for (const frame of shown) {
    const size = `${frame.width}x${frame.height}`;
    if (size === current) continue;
    current = size;
    parts.push(parts.length === 0 ? size : `${size} at ${((frame.at - start) / 1000).toFixed(1)} s`);
  }
  return parts.join(' → ') || 'no picture';
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '—');

export function printTable(headers: string[], rows: string[][]): void {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => row[column]!.length)),
  );
  const line = (cells: string[]) =>
    `| ${cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join(' | ')} |`;
  console.log(line(headers));
  console.log(
    `| ${widths.map((width, column) => (column === 0 ? '-'.repeat(width) : `${'-'.repeat(width - 1)}:`)).join(' | ')} |`,
  );
  for (const row of rows) console.log(line(row));
}

/**
 * The changing link, measured against the picture it had when its rate dropped: when a smaller picture came
 * (and when stream/layer named a lower layer), its long freezes from the drop on, and when a picture as large as
 * before the drop came back after the recovery.
 */
function changeOutcome(result: TFigures, report: TViewerReport, times: TTimes) {
  const drop = times.drop!;
  const recover = times.recover!;
  const area = (frame: TFrame) => frame.width * frame.height;
  const before = result.shown.filter((frame) => frame.at < drop).at(-1);
  const lower = before && result.shown.find((frame) => frame.at >= drop && area(frame) < area(before));
  const rank = (layer: string) => ['low', 'medium', 'high'].indexOf(layer);
  const layerAt = (at: number) => report.layers.filter((layer) => layer.at + report.clockOffset < at).at(-1);
  const layerBefore = layerAt(drop);
  const lowerMessage =
    layerBefore &&
    report.layers.find(
      (layer) => layer.at + report.clockOffset >= drop && rank(layer.layer) < rank(layerBefore.layer),
    );
  const atRecovery = result.shown.filter((frame) => frame.at < recover).at(-1);
  const wasLower = before !== undefined && atRecovery !== undefined && area(atRecovery) < area(before);
  const backUp = wasLower
    ? result.shown.find((frame) => frame.at >= recover && area(frame) >= area(before!))
    : undefined;
  return {
    sizeBefore: before && `${before.width}x${before.height}`,
    lowerSize: lower && `${lower.width}x${lower.height}`,
    lowerMs: lower && lower.at - drop,
    lowerMessageMs: lowerMessage && lowerMessage.at + report.clockOffset - drop,
    longFreezes: freezes(
      result.shown.map((frame) => frame.at),
      drop,
      times.end,
      1000,
    ),
    wasLower,
    backUpMs: backUp && backUp.at - recover,
  };
}

// ---------------------------------------------------------------------------------------------------------------

/** Everything to undo, last made first; run on the way out, on errors and on Ctrl-C. */
const closers: (() => unknown)[] = [];
let closing: Promise<void> | undefined;
function closeAll(): Promise<void> {
  closing ??= (async () => {
    while (closers.length > 0) {
      try {
        await closers.pop()!();
      } catch (error) {
        console.error('clean-up step failed:', error);
      }
    }
  })();
  return closing;
}

async function main(): Promise<void> {
  checkPrerequisites();
  removeLinks();
  const loadAtStart = loadavg();
  const clipPath = await ensureClip();

  const links: TLink[] = [{ label: 'loopback', rateMbit: null, hostAddress: '127.0.0.1' }];
  for (const rate of LINK_RATES) links.push({ label: `${rate} Mbit/s`, rateMbit: rate, hostAddress: '' });
  if (CHANGE) {
    links.push({
      label: `${CHANGE[0]}→${CHANGE[1]}→${CHANGE[0]} Mbit/s`,
      rateMbit: CHANGE[0],
      changeTo: CHANGE[1],
      hostAddress: '',
    });
  }
  closers.push(removeLinks);
  for (const [index, link] of links.slice(1).entries()) addLink(index, link);

  const pages = await startClipPages(clipPath);
  closers.push(() => pages.close());
  const dataDir = await mkdtemp(join(tmpdir(), 'rooms-bench-network-'));
  closers.push(() => rm(dataDir, { recursive: true, force: true }));
  const engine = new ChromiumRoomEngine({
    chromiumPath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    roomsDataDir: dataDir,
    capacity: 1,
    media: 'h264',
    egress: { start: startEgressProxy, allow: [pages.hostPort] },
  });
  closers.push(() => engine.close());
  await engine.start({
    roomId: ROOM_ID,
    width: WIDTH,
    height: HEIGHT,
    maxFrameRate: FPS,
    videoBitrateKbps: BITRATE_KBPS,
    startUrl: pages.url,
    keepData: false,
    autoCloseMs: null,
  });
  const playing = await pages.waitForEvent('play', 60_000);
  if (playing !== 'playing:sound')
    throw new Error(`the room's page did not play the clip with sound: ${playing}`);

  const server = await startRoomServer(
    engine,
    links.filter((link) => link.ns).map((link) => link.hostAddress),
  );
  closers.push(() => server.close());

  const viewers = links.map((link, index) =>
    startViewer(link, server.socketUrl(link.hostAddress, `bench-guest-${index}`), `viewer ${link.label}`),
  );
  closers.push(() => {
    for (const viewer of viewers) viewer.child.kill('SIGKILL');
  });
  await within(Promise.all(viewers.map((viewer) => viewer.joined)), 60_000, 'every viewer joined');

  // The run: from the moment all have joined, on the server's clock.
  const roomCpuBefore = await roomCpuSeconds(engine);
  const start = performance.now();
  const cpuBefore = process.cpuUsage();
  const times: TTimes = { start, end: start + SECONDS * 1000 };
  const changing = links.find((link) => link.changeTo !== undefined);
  const timers: NodeJS.Timeout[] = [];
  if (changing) {
    timers.push(
      setTimeout(() => {
        setRate(changing, changing.changeTo!);
        times.drop = performance.now();
      }, DROP_S * 1000),
      setTimeout(() => {
        setRate(changing, changing.rateMbit!);
        times.recover = performance.now();
      }, RECOVER_S * 1000),
    );
  }
  await sleep(SECONDS * 1000);
  const cpu = process.cpuUsage(cpuBefore);
  const roomCpu = (await roomCpuSeconds(engine)) - roomCpuBefore;
  await sleep(DRAIN_MS);
  for (const timer of timers) clearTimeout(timer);
  const counters = links.map(linkCounters).filter(Boolean);
  for (const viewer of viewers) viewer.child.stdin!.end('stop\n');
  const reports = await within(
    Promise.all(viewers.map((viewer) => viewer.report)),
    20_000,
    'every report in',
  );
  const loadAtEnd = loadavg();
  if (args.raw) {
    await writeFile(
      args.raw,
      JSON.stringify({ args, times, links: links.map((link) => link.label), reports }),
    );
  }

  // Figures
  const frames = reports.map(framesOf);
  const reference = frames[0]!;
  const full = `${WIDTH}x${HEIGHT}`;
  const results = frames.map((list) => figures(list, reference, times, full));
  const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' ');
  console.log(
    `network bench: one room ${WIDTH}x${HEIGHT} at ${FPS} fps, H.264 cap ${BITRATE_KBPS} kbit/s + Opus 96 kbit/s ` +
      `(10 ms packets), playing a ${CLIP_SECONDS} s VP8 + Opus clip looped; ${SECONDS} s from the last join; ` +
      `tbf queue ${QUEUE_MS} ms; ${availableParallelism()} CPUs, Node ${process.version}; ` +
      `load at start ${load(loadAtStart)}`,
  );
  printTable(
    [
      'link',
      'pictures/s',
      'after 5 s',
      'freezes > 0.5 s (after 5 s)',
      'frozen (after 5 s)',
      'sound received',
      'picture delay p50 / p95',
      'sound delay p50 / p95',
      'Mbit/s',
      `at ${full} after 5 s`,
    ],
    links.map((link, index) => {
      const result = results[index]!;
      return [
        link.label,
        fixed(result.fps),
        fixed(result.fpsSettled),
        `${result.freezes.length} (${result.freezesSettled.length})`,
        `${seconds(frozenMs(result.freezes))} (${seconds(frozenMs(result.freezesSettled))})`,
        `${fixed(100 * soundShare(result))} %`,
        `${fixed(result.pictureDelay[0], 0)} / ${fixed(result.pictureDelay[1], 0)} ms`,
        `${fixed(result.soundDelay[0], 0)} / ${fixed(result.soundDelay[1], 0)} ms`,
        fixed(result.mbps, 2),
        `${fixed(100 * result.fullShare, 0)} %`,
      ];
    }),
  );
  console.log(
    `Sent (what the loopback viewer received): ${fixed(results[0]!.fps)} pictures/s, sound packets ` +
      `${fixed(results[0]!.soundPackets / SECONDS)}/s covering ${fixed(results[0]!.soundSentMs / 10 / SECONDS)} % ` +
      `of the time. Sound packets/s received per link: ${links
        .map((link, index) => `${link.label} ${fixed(results[index]!.soundPackets / SECONDS)}`)
        .join(', ')}.`,
  );

  console.log(
    'Per link: stream/layer messages; picture sizes shown; freezes over 0.5 s (times from the start):',
  );
  for (const [index, link] of links.entries()) {
    const report = reports[index]!;
    const messages = report.layers
      .map(
        (layer) =>
          `${layer.layer} (${layer.reason}) at ${seconds(layer.at + report.clockOffset - times.start)}`,
      )
      .join(', ');
    const notes = [
      results[index]!.freezes.length > 0
        ? `freezes: ${results[index]!.freezes.map((gap) => `${seconds(gap.ms)} at ${seconds(gap.at - times.start)}`).join(', ')}`
        : '',
      ACKS ? `${report.acksSent} acks` : 'no acks',
      report.unparsedFrames > 0 ? `${report.unparsedFrames} H.264 frames unparsed` : '',
      report.errors.length > 0 ? `errors: ${report.errors.map((error) => error.code).join(', ')}` : '',
      report.closed
        ? `closed ${report.closed.code} at ${seconds(report.closed.at + report.clockOffset - times.start)}`
        : '',
      `clock sync ±${fixed(report.syncRtt / 2)} ms`,
    ].filter(Boolean);
    console.log(
      `  ${link.label}: ${messages || 'no stream/layer'}; ${sizesOverTime(results[index]!.shown, times.start)} ` +
        `(${notes.join('; ')})`,
    );
  }

  const change =
    changing && times.drop !== undefined && times.recover !== undefined
      ? changeOutcome(results[links.indexOf(changing)]!, reports[links.indexOf(changing)]!, times)
      : undefined;
  if (change) {
    const after = (ms: number | undefined, what: string) =>
      ms === undefined ? 'never' : `${seconds(ms)} ${what}`;
    console.log(
      `${changing!.label}: ${CHANGE![1]} Mbit/s from ${seconds(times.drop! - times.start)} to ` +
        `${seconds(times.recover! - times.start)}; picture at the drop ${change.sizeBefore ?? 'none'}. ` +
        `Smaller picture${change.lowerSize ? ` (${change.lowerSize})` : ''} ${after(change.lowerMs, 'after the drop')}` +
        ` (stream/layer to a lower layer: ${after(change.lowerMessageMs, 'after the drop')}); freezes over 1 s ` +
        `from the drop on: ${change.longFreezes.length}${
          change.longFreezes.length > 0 ? ` (longest ${seconds(longest(change.longFreezes))})` : ''
        }; back to ${change.sizeBefore} ${
          change.wasLower ? after(change.backUpMs, 'after the recovery') : '— (not smaller at the recovery)'
        }.`,
    );
  }

  const slowest = Math.min(...LINK_RATES);
  const good = links
    .map((link, index) => ({ link, result: results[index]! }))
    .filter(({ link }) => link.changeTo === undefined && (link.rateMbit === null || link.rateMbit >= 5));
  console.log(
    `Good links while the ${slowest} Mbit/s viewer watched (pictures/s after 5 s): ${good
      .map(({ link, result }) => `${link.label} ${fixed(result.fpsSettled)}`)
      .join(', ')}`,
  );

  // The issue's targets, for the links this run had.
  const byRate = (rate: number) =>
    results[links.findIndex((link) => link.rateMbit === rate && !link.changeTo)];
  const targets: [string, boolean | undefined][] = [];
  const one = byRate(1);
  if (one) {
    targets.push(
      [`1 Mbit/s: ≥ 24 pictures/s (${fixed(one.fps)})`, one.fps >= 24],
      [
        `1 Mbit/s: no freeze over 0.5 s after 5 s (${one.freezesSettled.length})`,
        one.freezesSettled.length === 0,
      ],
      [`1 Mbit/s: ≥ 98 % of the sound (${fixed(100 * soundShare(one))} %)`, soundShare(one) >= 0.98],
    );
  }
  const half = byRate(0.5);
  if (half) {
    targets.push(
      [
        `0.5 Mbit/s: all sound (${fixed(100 * soundShare(half), 2)} %; all: ≥ 99.9 %, at most 1 ms a second missing)`,
        soundShare(half) >= 0.999,
      ],
      [`0.5 Mbit/s: ≥ 10 pictures/s (${fixed(half.fps)})`, half.fps >= 10],
    );
  }
  const twenty = byRate(20);
  if (twenty) {
    targets.push([
      `20 Mbit/s: the room's full layer (${fixed(100 * twenty.fullShare, 0)} % of pictures after 5 s at ${full})`,
      twenty.fullShare >= 0.99,
    ]);
  }
  if (change) {
    targets.push(
      [
        `${changing!.label}: lower layer (a smaller picture) within 2 s of the drop`,
        change.lowerMs !== undefined && change.lowerMs <= 2000,
      ],
      [`${changing!.label}: no freeze over 1 s from the drop on`, change.longFreezes.length === 0],
      [
        `${changing!.label}: back up (to the picture before the drop) within 10 s of the recovery`,
        change.wasLower ? change.backUpMs !== undefined && change.backUpMs <= 10_000 : undefined,
      ],
    );
  }
  if (half) {
    const lowest = Math.min(...good.map(({ result }) => result.fpsSettled));
    targets.push([
      `good links ≥ 29 pictures/s while 0.5 Mbit/s watches (lowest ${fixed(lowest)})`,
      lowest >= 29,
    ]);
  }
  console.log('Targets (issue 27):');
  for (const [target, met] of targets) {
    console.log(`  ${met === undefined ? 'n/a    ' : met ? 'met    ' : 'not met'}  ${target}`);
  }
  console.log(`tbf on the links' host ends: ${counters.join('; ')}`);
  const percent = (cpuSeconds: number) => `${fixed((cpuSeconds / SECONDS) * 100, 0)} %`;
  console.log(
    `Load at end ${load(loadAtEnd)}. CPU over the run, of one core: the room (browser, encoders, sandbox) ` +
      `${percent(roomCpu)}, this process (server, relay, hub, egress proxy) ` +
      `${percent((cpu.user + cpu.system) / 1e6)}, the viewers ${fixed(
        (reports.reduce((sum, report) => sum + report.cpuMs, 0) / (SECONDS * 1000 + DRAIN_MS)) * 100,
        0,
      )} % in all.`,
  );
}

// Run as a script; bench/network-egress.ts only borrows the clip and its page.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`\n${signal}: removing the namespaces and stopping the room`);
      void Promise.race([closeAll(), sleep(15_000)]).finally(() => process.exit(130));
    });
  }
  try {
    await main();
  } finally {
    await closeAll();
  }
}
