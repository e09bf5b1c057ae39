// What an agent sends its gateways when many people watch one room (issue 27, point 6: one copy per layer per
// gateway, whatever the number of viewers). Real processes as apps/server/src/fleet/room-feed.integration.test.ts
// starts them (a control plane, one agent on the H.264 pipeline, two gateways, the server bundle) on a throw-away
// embedded PostgreSQL; one room at 1280×720, 30 fps, 2500 kbit/s playing bench/network.ts's clip; 100 viewers,
// half on each gateway, as WebSocket clients in this process that join and acknowledge as the web client does.
// Phases: everyone on Auto; everyone on the high layer; a third each on high, medium and low. Over a window after
// the viewers settled: the agent's bytes to each gateway from the kernel's socket counters (the feed apart from the
// participants' own sockets), against what one viewer of each layer the gateway's viewers take receives; what each
// viewer received and its pictures per second; the CPU of every process. Method and results: bench/README.md.
// Run: npm run bench:egress [-- viewers=100 gateways=2 seconds=20 settle=5 phases=auto,high,mixed bitrate=2500]
import { execFile } from 'node:child_process';
import { chmod, stat as fileStat, mkdtemp, readdir, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  roomSocketPath,
  type TStreamLayer,
  type TStreamLayerChoice,
  type TStreamLayerName,
} from '@rooms/api/room-protocol';
import { freePort, initOrm, type MikroORM, Plan, startEmbeddedPostgres } from '@rooms/db';
import WebSocket from 'ws';
import { bundleServer, SERVER_BUNDLE } from '../apps/server/src/bundle';
import { REPO_ROOT } from '../apps/server/src/env';
import { opusPacketSamples } from '../apps/server/src/rooms/media/ogg-opus-reader';
import { stat as processStat, treeUsage } from '../apps/server/src/rooms/process-tree';
import { decodeH264 } from '../apps/server/src/testing/rooms/decode-check';
import {
  killServerProcesses,
  startServerProcess,
  type TServerProcess,
} from '../apps/server/src/testing/server-processes';
import { storedRoom, storedUser } from '../apps/server/src/testing/stored-accounts';
import { ensureClip, printTable, startClipPages, within } from './network';

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [name, value = ''] = arg.split('=');
    return [name, value];
  }),
);
const number = (name: string, fallback: number) => (args[name] ? Number(args[name]) : fallback);

const VIEWERS = number('viewers', 100);
const GATEWAYS = number('gateways', 2);
/** The measured window of each phase. */
const SECONDS = number('seconds', 20);
/** Time after a phase's viewers joined (or took their layer) before its window opens. */
const SETTLE_S = number('settle', 5);
type TPhase = 'auto' | 'high' | 'medium' | 'low' | 'mixed';
const PHASES = (args.phases ?? 'auto,high,mixed').split(',') as TPhase[];
const BITRATE_KBPS = number('bitrate', 2500);
const WIDTH = 1280;
const HEIGHT = 720;
const FPS = 30;
/** Viewers connecting at the same moment. */
const JOINING_AT_ONCE = 10;
/** Like apps/web's stream-acks.ts: at most one ack per 100 ms, a keyframe-sized message acknowledged at once. */
const ACK_EVERY_MS = 100;
const ACK_AT_ONCE_BYTES = 16 * 1024;
const SECRET = 'bench-egress-secret-that-is-long-enough-for-hmac';
/** USER_HZ: /proc reports CPU time in these ticks. */
const TICKS_PER_SECOND = 100;
const LAYER_NAMES: TStreamLayerName[] = ['high', 'medium', 'low'];

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mbit = (bytes: number, seconds: number) => (bytes * 8) / seconds / 1e6;
const fixed = (value: number, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : '—');

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** "1.23 (1.20–1.25)": median, then the range. */
function spread(values: number[], digits = 2): string {
  if (values.length === 0) return '—';
  return `${fixed(median(values), digits)} (${fixed(Math.min(...values), digits)}–${fixed(Math.max(...values), digits)})`;
}

// ---------------------------------------------------------------------------------------------------------------
// A viewer: the web client's socket without its decoders. It keeps counts, not frames (100 viewers for a minute
// would hold gigabytes), except for the few whose pictures are decoded at the end of a window.

/** What arrived on a stream: a picture size ('h264 1280x720'), a sound ('opus 10ms', by packet length), padding. */
type TStreamKey = string;

interface TCounts {
  /** Every binary message's bytes, padding included: what stream/ack reports and the gateway sent. */
  bytes: number;
  byStream: Map<TStreamKey, number>;
  pictures: number;
  /** Pictures after a keyframe of the same size: what a decoder could show (a skip goes to the next keyframe). */
  shown: number;
  soundPackets: number;
}

/** Bytes of pictures and sound: what the agent would send a viewer, without the gateway's padding. */
const mediaBytes = (counts: TCounts) =>
  [...counts.byStream].reduce((sum, [key, bytes]) => (key === 'padding' ? sum : sum + bytes), 0);

const copyCounts = (counts: TCounts): TCounts => ({ ...counts, byStream: new Map(counts.byStream) });

function countsBetween(after: TCounts, before: TCounts): TCounts {
  const byStream = new Map<TStreamKey, number>();
  for (const [key, bytes] of after.byStream) {
    const delta = bytes - (before.byStream.get(key) ?? 0);
    if (delta > 0) byStream.set(key, delta);
  }
  return {
    bytes: after.bytes - before.bytes,
    byStream,
    pictures: after.pictures - before.pictures,
    shown: after.shown - before.shown,
    soundPackets: after.soundPackets - before.soundPackets,
  };
}

const H264_CODEC = 2;
const OPUS_CODEC = 3;
const PADDING_CODEC = 0;

class Viewer {
  readonly counts: TCounts = { bytes: 0, byStream: new Map(), pictures: 0, shown: 0, soundPackets: 0 };
  /** stream/layer messages, in order. */
  readonly layerMessages: { at: number; layer: TStreamLayerName; reason: string }[] = [];
  configLayers: TStreamLayer[] = [];
  joined = false;
  closed: { code: number; reason: string } | undefined;
  lastKeyframeSize = '';
  /** The streams received in each second of the window, for which streams a gateway's feed had to carry. */
  private window: { start: number; seconds: Map<TStreamKey, Set<number>> } | undefined;
  /** Pictures kept for a decode, from the window's first keyframe. */
  private capture: Uint8Array[] | undefined;
  private chainSize = '';
  private acked = 0;
  private lastAt = 0;
  private ackedAt = Number.NEGATIVE_INFINITY;
  private ackTimer: NodeJS.Timeout | undefined;

  private constructor(
    readonly index: number,
    readonly gateway: number,
    private readonly socket: WebSocket,
  ) {
    socket.on('message', (data, isBinary) => {
      const bytes = data as Buffer;
      if (isBinary) this.binary(bytes);
      else this.text(bytes);
    });
    socket.on('close', (code, reason) => {
      clearTimeout(this.ackTimer);
      this.closed = { code, reason: reason.toString() };
    });
    socket.on('error', () => {});
  }

  static async join(url: string, index: number, gateway: number, layer: TStreamLayerChoice): Promise<Viewer> {
    const socket = new WebSocket(url, { perMessageDeflate: false });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
      socket.once('unexpected-response', (_request, response) =>
        reject(new Error(`viewer ${index}: upgrade refused (${response.statusCode})`)),
      );
    });
    const viewer = new Viewer(index, gateway, socket);
    viewer.send({
      type: 'member/join',
      nickname: `Viewer ${index}`,
      decoders: ['h264', 'opus', 'jpeg'],
      layer,
      acks: true,
    });
    await viewer.until(
      () => viewer.joined && viewer.lastKeyframeSize !== '',
      'joined with a picture',
      60_000,
    );
    return viewer;
  }

  get layer(): TStreamLayerName | undefined {
    return this.layerMessages.at(-1)?.layer;
  }

  sizeOf(layer: TStreamLayerName): string | undefined {
    const shape = this.configLayers.find((candidate) => candidate.name === layer);
    return shape && `${shape.width}x${shape.height}`;
  }

  choose(layer: TStreamLayerChoice): void {
    this.send({ type: 'stream/choose', layer });
  }

  openWindow(start: number, capture: boolean): void {
    this.window = { start, seconds: new Map() };
    this.capture = capture ? [] : undefined;
  }

  /** The streams this viewer received, by the seconds of the window they arrived in. */
  closeWindow(): { seconds: Map<TStreamKey, Set<number>>; pictures: Uint8Array[] } {
    const seconds = this.window?.seconds ?? new Map();
    const pictures = this.capture ?? [];
    this.window = undefined;
    this.capture = undefined;
    return { seconds, pictures };
  }

  async until(condition: () => boolean, what: string, timeoutMs: number): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    while (!condition()) {
      if (this.closed)
        throw new Error(`viewer ${this.index}: closed (${this.closed.code}) waiting for ${what}`);
      if (performance.now() > deadline)
        throw new Error(`viewer ${this.index}: no ${what} in ${timeoutMs} ms`);
      await sleep(50);
    }
  }

  close(): void {
    clearTimeout(this.ackTimer);
    this.socket.terminate();
  }

  private send(message: object): void {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  private binary(bytes: Buffer): void {
    const at = performance.now();
    this.counts.bytes += bytes.byteLength;
    this.lastAt = at;
    this.ackLater(bytes.byteLength, at);
    const codec = bytes[1];
    let key: TStreamKey;
    if (codec === H264_CODEC) {
      const size = `${bytes.readUInt16BE(4)}x${bytes.readUInt16BE(6)}`;
      const keyframe = (bytes[2]! & 1) === 1;
      key = `h264 ${size}`;
      if (keyframe) {
        this.chainSize = size;
        this.lastKeyframeSize = size;
      }
      this.counts.pictures += 1;
      if (size === this.chainSize) this.counts.shown += 1;
      if (this.capture && (this.capture.length > 0 || keyframe)) this.capture.push(bytes.subarray(16));
    } else if (codec === OPUS_CODEC) {
      key = `opus ${opusPacketSamples(bytes.subarray(16)) / 48}ms`;
      this.counts.soundPackets += 1;
    } else if (codec === PADDING_CODEC) {
      key = 'padding';
    } else {
      key = `codec ${codec}`;
    }
    this.counts.byStream.set(key, (this.counts.byStream.get(key) ?? 0) + bytes.byteLength);
    if (this.window) {
      const second = Math.min(SECONDS - 1, Math.floor((at - this.window.start) / 1000));
      const seconds = this.window.seconds.get(key) ?? new Set<number>();
      seconds.add(second);
      this.window.seconds.set(key, seconds);
    }
  }

  private text(bytes: Buffer): void {
    const message = JSON.parse(bytes.toString('utf8')) as {
      type: string;
      layer?: TStreamLayerName;
      reason?: string;
      layers?: TStreamLayer[];
    };
    if (message.type === 'member/list') this.joined = true;
    else if (message.type === 'stream/config') this.configLayers = message.layers ?? [];
    else if (message.type === 'stream/layer') {
      this.layerMessages.push({ at: performance.now(), layer: message.layer!, reason: message.reason! });
    }
  }

  /** apps/web's StreamAcks: the bytes so far, when the last of them arrived, and how long the ack was held. */
  private ackLater(byteLength: number, at: number): void {
    const wait = this.ackedAt + ACK_EVERY_MS - at;
    if (wait <= 0 || byteLength >= ACK_AT_ONCE_BYTES) this.flushAck();
    else this.ackTimer ??= setTimeout(() => this.flushAck(), wait);
  }

  private flushAck(): void {
    clearTimeout(this.ackTimer);
    this.ackTimer = undefined;
    if (this.counts.bytes === this.acked) return;
    this.acked = this.counts.bytes;
    this.ackedAt = performance.now();
    this.send({
      type: 'stream/ack',
      bytes: this.acked,
      t: this.lastAt,
      held: Math.min(10_000, Math.max(0, this.ackedAt - this.lastAt)),
    });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The agent's connections, from the kernel: bytes it sent on each, and which process holds the other end.

interface TAgentConnections {
  /** When the counters were read (the middle of the call). */
  at: number;
  /** By the peer's port: the bytes the agent sent, and the process at that end. */
  byPeerPort: Map<number, { bytesSent: number; pid: number | undefined }>;
}

async function agentConnections(agentPort: number): Promise<TAgentConnections> {
  const asked = performance.now();
  const { stdout } = await run('ss', [
    '-tinpH',
    'state',
    'established',
    `( sport = :${agentPort} or dport = :${agentPort} )`,
  ]);
  const lines = stdout.split('\n');
  const sent = new Map<number, number>();
  const owners = new Map<number, number>();
  for (let i = 0; i < lines.length; i++) {
    const socket = /^\S+\s+\S+\s+\S+:(\d+)\s+\S+:(\d+)(.*)$/.exec(lines[i]!);
    if (!socket) continue;
    const local = Number(socket[1]);
    const peer = Number(socket[2]);
    const info = lines[i + 1]?.startsWith('\t') || lines[i + 1]?.startsWith(' ') ? lines[i + 1]! : '';
    if (local === agentPort) sent.set(peer, Number(/bytes_sent:(\d+)/.exec(info)?.[1] ?? 0));
    else if (peer === agentPort) {
      const pid = /pid=(\d+)/.exec(socket[3]!)?.[1];
      if (pid) owners.set(local, Number(pid));
    }
  }
  const byPeerPort = new Map<number, { bytesSent: number; pid: number | undefined }>();
  for (const [port, bytesSent] of sent) byPeerPort.set(port, { bytesSent, pid: owners.get(port) });
  return { at: (asked + performance.now()) / 2, byPeerPort };
}

/** Per process at the other end: the connection that carried the most (the gateway's feed) and the rest. */
function agentSentBetween(
  before: TAgentConnections,
  after: TAgentConnections,
): Map<number, { largest: number; rest: number; connections: number }> {
  const byPid = new Map<number, number[]>();
  for (const [port, { bytesSent, pid }] of after.byPeerPort) {
    if (pid === undefined) continue;
    const delta = bytesSent - (before.byPeerPort.get(port)?.bytesSent ?? 0);
    byPid.set(pid, [...(byPid.get(pid) ?? []), delta]);
  }
  const result = new Map<number, { largest: number; rest: number; connections: number }>();
  for (const [pid, deltas] of byPid) {
    const largest = Math.max(...deltas);
    const total = deltas.reduce((sum, delta) => sum + delta, 0);
    result.set(pid, { largest, rest: total - largest, connections: deltas.length });
  }
  return result;
}

// ---------------------------------------------------------------------------------------------------------------
// CPU: the server processes' own (/proc/<pid>/stat), the room's (everything the agent started: browser, display,
// sound server, encoders, sandbox), this process's (the viewers).

interface TCpu {
  at: number;
  byPid: Map<number, number>;
  agentTree: number;
  self: NodeJS.CpuUsage;
}

async function cpuNow(pids: number[], agentPid: number): Promise<TCpu> {
  const byPid = new Map<number, number>();
  for (const pid of pids)
    byPid.set(pid, ((await processStat(pid))?.cpuTicks ?? Number.NaN) / TICKS_PER_SECOND);
  const agentTree = (await treeUsage(agentPid)).cpuSeconds;
  return { at: performance.now(), byPid, agentTree, self: process.cpuUsage() };
}

// ---------------------------------------------------------------------------------------------------------------

/** The bundle the processes run, written again when a source it is built from is newer. */
async function ensureBundle(): Promise<void> {
  const built = await fileStat(SERVER_BUNDLE).catch(() => undefined);
  let newest = 0;
  for (const dir of ['apps/server/src', 'packages/api/src', 'packages/db/src']) {
    for (const entry of await readdir(join(REPO_ROOT, dir), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
      newest = Math.max(newest, (await fileStat(join(entry.parentPath, entry.name))).mtimeMs);
    }
  }
  if (built && built.mtimeMs >= newest) return;
  console.log(`writing ${SERVER_BUNDLE} (${built ? 'older than its sources' : 'missing'})`);
  await bundleServer();
}

/** A plan that seats the run's viewers (Pro seats 10); otherwise Pro's limits. */
async function benchPlan(orm: MikroORM): Promise<string> {
  const em = orm.em.fork();
  const pro = await em.findOneOrFail(Plan, { code: 'pro' });
  const code = 'bench-egress';
  if (!(await em.findOne(Plan, { code }))) {
    em.create(Plan, {
      code,
      name: 'Bench egress',
      description: pro.description,
      priceCents: pro.priceCents,
      durationDays: pro.durationDays,
      inventory: pro.inventory,
      maxRooms: pro.maxRooms,
      maxConnections: VIEWERS + 10,
      maxWidth: pro.maxWidth,
      maxHeight: pro.maxHeight,
      maxFrameRate: pro.maxFrameRate,
      maxBitrateKbps: pro.maxBitrateKbps,
      regionCodes: pro.regionCodes,
      timeQuotaMinutes: pro.timeQuotaMinutes,
      freeTimeQuotaMinutes: pro.freeTimeQuotaMinutes,
      level: pro.level,
      canConfigureAutoClose: pro.canConfigureAutoClose,
      persistentStorage: pro.persistentStorage,
      isDefault: false,
      sortOrder: 99,
    });
    await em.flush();
  }
  return code;
}

const choiceOf = (phase: TPhase, index: number): TStreamLayerChoice =>
  phase === 'mixed' ? LAYER_NAMES[index % LAYER_NAMES.length]! : phase;

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
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping the server processes`);
    void Promise.race([closeAll(), sleep(15_000)]).finally(() => process.exit(130));
  });
}

async function main(): Promise<void> {
  const loadAtStart = loadavg();
  await ensureBundle();
  const clipPath = await ensureClip();
  const pages = await startClipPages(clipPath);
  closers.push(() => pages.close());

  const dir = await mkdtemp(join(tmpdir(), 'rooms-bench-egress-'));
  // When we run as root the embedded server runs as `postgres` and must reach inside.
  await chmod(dir, 0o755);
  closers.push(() => rm(dir, { recursive: true, force: true }));
  const postgres = await startEmbeddedPostgres({
    dataDir: join(dir, 'pg'),
    port: await freePort(),
    postgresFlags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
  });
  closers.push(() => postgres.stop());

  closers.push(killServerProcesses);
  const start = (name: string, env: Record<string, string>, port?: number) =>
    startServerProcess(
      name,
      {
        DATABASE_URL: postgres.url,
        DATA_DIR: join(dir, name),
        APP_SECRET: SECRET,
        BILLING_JOBS: 'off',
        ...env,
      },
      port,
    );
  const controlPort = await freePort();
  const publicUrl = `http://127.0.0.1:${controlPort}`;
  // The control plane migrates and seeds before it serves; the others start after it.
  const control = await start('control', { ROOM_ROLE: 'control', PUBLIC_URL: publicUrl }, controlPort);
  const agentPort = await freePort();
  const agent = await start(
    'agent',
    {
      ROOM_ROLE: 'agent',
      AGENT_ADDRESS: `127.0.0.1:${agentPort}`,
      ROOMS_DATA_DIR: join(dir, 'agent', 'rooms'),
      ROOM_EGRESS_ALLOW: pages.hostPort,
      ROOM_CAPACITY: '1',
      ROOM_WARM_POOL: '0',
      ROOM_MEDIA: 'h264',
    },
    agentPort,
  );
  const gateways: TServerProcess[] = [];
  for (let index = 0; index < GATEWAYS; index++) {
    gateways.push(await start(`gateway-${index + 1}`, { ROOM_ROLE: 'gateway', PUBLIC_URL: publicUrl }));
  }

  const orm = await initOrm({ clientUrl: postgres.url, logger: () => {} });
  closers.push(() => orm.close());
  const owner = await storedUser(orm, { prefix: 'egress', plan: await benchPlan(orm) });
  const room = await storedRoom(orm, owner.id, {
    startUrl: pages.url,
    width: WIDTH,
    height: HEIGHT,
    maxFrameRate: FPS,
    videoBitrateKbps: BITRATE_KBPS,
    maxConnections: VIEWERS + 10,
    isPublic: true,
  });
  // A person each: one person may hold only a few room sockets that have not joined yet (connection-book.ts).
  const people = await Promise.all(
    Array.from({ length: VIEWERS }, () => storedUser(orm, { prefix: 'viewer', plan: null })),
  );
  const started = await fetch(`${control.url}/api/room/startRoom?id=${room.id}`, {
    method: 'POST',
    headers: { authorization: owner.token },
  });
  const startedBody = (await started.json()) as { msg?: string; data?: { state?: string } };
  if (startedBody.data?.state !== 'running') {
    throw new Error(`the room did not start: ${JSON.stringify(startedBody)}\n${agent.log()}`);
  }
  const playing = await pages.waitForEvent('play', 60_000);
  if (playing !== 'playing:sound')
    throw new Error(`the room's page did not play the clip with sound: ${playing}`);

  const agentPid = agent.child.pid!;
  const processes = [
    { name: 'agent (server)', pid: agentPid },
    ...gateways.map((gateway, index) => ({ name: `gateway-${index + 1}`, pid: gateway.child.pid! })),
    { name: 'control', pid: control.child.pid! },
  ];

  // The viewers, JOINING_AT_ONCE at a time, the first phase's choice already in their member/join.
  const viewers: Viewer[] = [];
  closers.push(() => {
    for (const viewer of viewers) viewer.close();
  });
  const joinStart = performance.now();
  for (let first = 0; first < VIEWERS; first += JOINING_AT_ONCE) {
    const batch = [];
    for (let index = first; index < Math.min(VIEWERS, first + JOINING_AT_ONCE); index++) {
      const gateway = index % GATEWAYS;
      const url = `ws://127.0.0.1:${gateways[gateway]!.port}${roomSocketPath(room.id)}?token=${encodeURIComponent(people[index]!.token)}`;
      batch.push(Viewer.join(url, index, gateway, choiceOf(PHASES[0]!, index)));
    }
    viewers.push(...(await Promise.all(batch)));
  }
  console.log(
    `${VIEWERS} viewers joined in ${((performance.now() - joinStart) / 1000).toFixed(1)} s ` +
      `(load ${loadavg()
        .map((value) => value.toFixed(2))
        .join(' ')})`,
  );

  const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' ');
  console.log(
    `egress bench: one room ${WIDTH}x${HEIGHT} at ${FPS} fps, H.264 cap ${BITRATE_KBPS} kbit/s, playing the ` +
      `network bench's clip; ${VIEWERS} viewers over ${GATEWAYS} gateways (control plane, agent and gateways as ` +
      `processes of the server bundle); ${SECONDS} s per phase after ${SETTLE_S} s to settle; ` +
      `${availableParallelism()} CPUs, Node ${process.version}; load at start ${load(loadAtStart)}`,
  );
  for (const [phaseIndex, phase] of PHASES.entries()) {
    if (phaseIndex > 0) {
      for (const viewer of viewers) viewer.choose(choiceOf(phase, viewer.index));
    }
    // A fixed choice is settled once each viewer was told its layer and has had one of its keyframes.
    if (phase !== 'auto') {
      await within(
        Promise.all(
          viewers.map((viewer) => {
            const layer = choiceOf(phase, viewer.index) as TStreamLayerName;
            return viewer.until(
              () => viewer.layer === layer && viewer.lastKeyframeSize === viewer.sizeOf(layer),
              `the ${layer} layer`,
              30_000,
            );
          }),
        ),
        35_000,
        `every viewer on its ${phase} layer`,
      );
    }
    await sleep(SETTLE_S * 1000);
    await measure(phase, viewers, { agentPort, agentPid, processes, gateways });
  }
  const closedEarly = viewers.filter((viewer) => viewer.closed);
  console.log(
    `\nLoad at end ${load(loadavg())}${closedEarly.length > 0 ? `; ${closedEarly.length} viewers' sockets closed early` : ''}.`,
  );
}

interface TMeasureContext {
  agentPort: number;
  agentPid: number;
  processes: { name: string; pid: number }[];
  gateways: TServerProcess[];
}

/** One window: counters before and after, then what they say. */
async function measure(phase: TPhase, viewers: Viewer[], context: TMeasureContext): Promise<void> {
  const pids = context.processes.map((process) => process.pid);
  // One viewer per gateway and layer (the first found) has its pictures decoded.
  const captured = new Set<Viewer>();
  const seen = new Set<string>();
  for (const viewer of viewers) {
    const key = `${viewer.gateway} ${choiceOf(phase, viewer.index)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    captured.add(viewer);
  }
  const layersBefore = viewers.map((viewer) => viewer.layerMessages.length);
  // CPU first and last: reading every process's /proc takes a while, and the byte counts must share one window.
  const cpuBefore = await cpuNow(pids, context.agentPid);
  const connectionsBefore = await agentConnections(context.agentPort);
  const countsBefore = viewers.map((viewer) => copyCounts(viewer.counts));
  const windowStart = performance.now();
  for (const viewer of viewers) viewer.openWindow(windowStart, captured.has(viewer));
  await sleep(SECONDS * 1000);
  const counts = viewers.map((viewer, index) => countsBetween(viewer.counts, countsBefore[index]!));
  const windows = viewers.map((viewer) => viewer.closeWindow());
  const seconds = (performance.now() - windowStart) / 1000;
  const connectionsAfter = await agentConnections(context.agentPort);
  const cpuAfter = await cpuNow(pids, context.agentPid);
  const sent = agentSentBetween(connectionsBefore, connectionsAfter);
  const sentSeconds = (connectionsAfter.at - connectionsBefore.at) / 1000;

  // The rate of one copy of each stream: what a viewer receives of it per second it receives it, over all viewers.
  const streamBytes = new Map<TStreamKey, number>();
  const streamSeconds = new Map<TStreamKey, number>();
  for (const [index, window] of windows.entries()) {
    for (const [key, secondsWith] of window.seconds) {
      if (key === 'padding') continue;
      streamBytes.set(key, (streamBytes.get(key) ?? 0) + (counts[index]!.byStream.get(key) ?? 0));
      streamSeconds.set(key, (streamSeconds.get(key) ?? 0) + secondsWith.size);
    }
  }
  const oneCopyMbit = (key: TStreamKey) => mbit(streamBytes.get(key) ?? 0, streamSeconds.get(key) || 1);

  const layerOfSize = new Map<string, TStreamLayerName>();
  for (const layer of viewers[0]!.configLayers)
    layerOfSize.set(`h264 ${layer.width}x${layer.height}`, layer.name);
  const streamName = (key: TStreamKey) =>
    layerOfSize.has(key) ? `${layerOfSize.get(key)} ${key.slice(5)}` : key.replace('opus ', 'sound ');
  /** The layer a viewer's window was on: the one picture size it received, or 'switched'. */
  const layerIn = (index: number) => {
    const sizes = [...counts[index]!.byStream.keys()].filter((key) => key.startsWith('h264 '));
    return sizes.length === 1
      ? (layerOfSize.get(sizes[0]!) ?? sizes[0]!)
      : sizes.length === 0
        ? 'none'
        : 'switched';
  };

  const out = (line = '') => console.log(line);
  out(
    `\n### Phase ${phase}${phase === 'mixed' ? ' (a third each on high, medium and low)' : phase === 'auto' ? ' (every viewer on Auto)' : ` (every viewer on ${phase})`}: ${fixed(seconds, 1)} s`,
  );
  out(
    `One copy of each stream, as a viewer receives it: ${[...streamBytes.keys()]
      .sort()
      .map((key) => `${streamName(key)} ${fixed(oneCopyMbit(key), 3)} Mbit/s`)
      .join(', ')}`,
  );

  const gatewayRows: string[][] = [];
  let agentTotal = 0;
  let wouldBeTotal = 0;
  for (const [gatewayIndex, gateway] of context.gateways.entries()) {
    const mine = viewers
      .map((viewer, index) => ({ viewer, index }))
      .filter(({ viewer }) => viewer.gateway === gatewayIndex);
    // Which streams this gateway's viewers took, and for how much of the window: what its feed had to carry.
    const covered = new Map<TStreamKey, Set<number>>();
    for (const { index } of mine) {
      for (const [key, secondsWith] of windows[index]!.seconds) {
        if (key === 'padding') continue;
        const union = covered.get(key) ?? new Set<number>();
        for (const second of secondsWith) union.add(second);
        covered.set(key, union);
      }
    }
    const oneCopy = [...covered].reduce(
      (sum, [key, union]) => sum + (union.size / SECONDS) * oneCopyMbit(key),
      0,
    );
    const fromAgent = sent.get(gateway.child.pid!) ?? { largest: 0, rest: 0, connections: 0 };
    const feed = mbit(fromAgent.largest, sentSeconds);
    const participantSockets = mbit(fromAgent.rest, sentSeconds);
    const media = mine.reduce((sum, { index }) => sum + mediaBytes(counts[index]!), 0);
    const toViewers = mine.reduce((sum, { index }) => sum + counts[index]!.bytes, 0);
    const layers = new Map<string, number>();
    for (const { index } of mine) layers.set(layerIn(index), (layers.get(layerIn(index)) ?? 0) + 1);
    agentTotal += feed + participantSockets;
    wouldBeTotal += mbit(media, seconds);
    gatewayRows.push([
      `gateway-${gatewayIndex + 1}`,
      String(mine.length),
      [...layers].map(([layer, count]) => `${count} ${layer}`).join(', '),
      [...covered.keys()].sort().map(streamName).join(', '),
      fixed(feed),
      fixed(oneCopy),
      fixed(feed / oneCopy),
      `${fixed(participantSockets * 1000, 1)} (${fromAgent.connections - 1})`,
      fixed(mbit(media, seconds), 1),
      fixed(mbit(toViewers, seconds), 1),
    ]);
  }
  printTable(
    [
      'gateway',
      'viewers',
      'their layers (whole window)',
      'streams its viewers took',
      'agent → feed Mbit/s',
      'one copy Mbit/s',
      'copies',
      'agent → participant sockets kbit/s (sockets)',
      'one copy per viewer would be Mbit/s',
      'gateway → viewers Mbit/s',
    ],
    gatewayRows,
  );
  const others = [...sent]
    .filter(([pid]) => !context.gateways.some((gateway) => gateway.child.pid === pid))
    .map(([pid, value]) => {
      const name = context.processes.find((process) => process.pid === pid)?.name ?? `pid ${pid}`;
      return `${name} ${fixed(mbit(value.largest + value.rest, sentSeconds) * 1000, 1)} kbit/s`;
    });
  out(
    `Agent egress in all: ${fixed(agentTotal)} Mbit/s (one copy per viewer would be ${fixed(wouldBeTotal, 1)} Mbit/s: ` +
      `${fixed(wouldBeTotal / agentTotal, 1)}×)${others.length > 0 ? `; to other processes ${others.join(', ')}` : ''}.`,
  );

  const layerRows: string[][] = [];
  const groups = new Map<string, number[]>();
  for (const index of viewers.keys())
    groups.set(layerIn(index), [...(groups.get(layerIn(index)) ?? []), index]);
  for (const [layer, indexes] of [...groups].sort()) {
    const of = (pick: (counted: TCounts) => number) => indexes.map((index) => pick(counts[index]!) / seconds);
    layerRows.push([
      layer,
      String(indexes.length),
      spread(
        of((counted) => (8 / 1e6) * mediaBytes(counted)),
        3,
      ),
      spread(
        of((counted) => (8 / 1e6) * (counted.byStream.get('padding') ?? 0)),
        3,
      ),
      spread(
        of((counted) => counted.shown),
        1,
      ),
      spread(
        of((counted) => counted.pictures - counted.shown),
        1,
      ),
      spread(
        of((counted) => counted.soundPackets),
        0,
      ),
    ]);
  }
  printTable(
    [
      'viewers on',
      'viewers',
      'media Mbit/s, median (range)',
      'padding Mbit/s',
      'pictures/s',
      'pictures/s not shown',
      'sound packets/s',
    ],
    layerRows,
  );
  const changes = viewers.flatMap((viewer, index) => viewer.layerMessages.slice(layersBefore[index]));
  const reasons = new Map<string, number>();
  for (const change of changes) {
    const key = `${change.reason} → ${change.layer}`;
    reasons.set(key, (reasons.get(key) ?? 0) + 1);
  }
  out(
    `Layer changes in the window: ${changes.length === 0 ? 'none' : [...reasons].map(([reason, count]) => `${count}× ${reason}`).join(', ')}.`,
  );

  const cpuSeconds = (cpuAfter.at - cpuBefore.at) / 1000;
  const cpu = (pid: number) => (cpuAfter.byPid.get(pid)! - cpuBefore.byPid.get(pid)!) / cpuSeconds;
  const agentOwn = cpu(context.agentPid);
  const room = (cpuAfter.agentTree - cpuBefore.agentTree) / cpuSeconds - agentOwn;
  const self = process.cpuUsage(cpuBefore.self);
  out(
    `CPU, % of one core: ${context.processes.map(({ name, pid }) => `${name} ${fixed(100 * cpu(pid), 0)}`).join(', ')}, ` +
      `the room (browser, display, sound, encoders) ${fixed(100 * room, 0)}, this process (${viewers.length} viewers) ` +
      `${fixed((100 * (self.user + self.system)) / 1e6 / cpuSeconds, 0)}; load ${loadavg()
        .map((value) => value.toFixed(2))
        .join(' ')}.`,
  );

  const decoded: string[] = [];
  for (const viewer of captured) {
    const pictures = windows[viewers.indexOf(viewer)]!.pictures;
    if (pictures.length === 0) {
      decoded.push(`viewer ${viewer.index} (gateway-${viewer.gateway + 1}): no keyframe in the window`);
      continue;
    }
    const result = await decodeH264(pictures);
    decoded.push(
      `viewer ${viewer.index} (gateway-${viewer.gateway + 1}, ${layerIn(viewers.indexOf(viewer))}): ` +
        `${result.frames}/${pictures.length}${result.errors ? ` (${result.errors.split('\n')[0]})` : ''}`,
    );
  }
  out(`Decoded by ffmpeg, pictures from the window's first keyframe on: ${decoded.join('; ')}.`);
}

try {
  await main();
} finally {
  await closeAll();
}
