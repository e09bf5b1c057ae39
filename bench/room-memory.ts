// Memory of live rooms at 720p30 on the default path (H.264 + Opus on a virtual display), with candidate
// Chromium flags: the room's PSS split by process kind (Chromium's browser, renderers, GPU and utility processes;
// Xvfb, PulseAudio, the two encoders; the sandbox), and whether the page still works with them (a click lands,
// the picture and the sound keep coming). A flag earns its place in the room's own list only by what it saves here.
// Run: npm run bench:memory [-- seconds=8 rooms=1 variants=current,spare,...]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TRoomLaunchSpec } from '@rooms/api';
import { startEgressProxy } from '../apps/server/src/rooms/egress/egress-proxy';
import { ChromiumRoomEngine } from '../apps/server/src/rooms/engine/chromium-room-engine';
import { treeMemory } from '../apps/server/src/rooms/process-tree';
import { apply, press } from '../apps/server/src/testing/rooms/room-input';
import { startTestPages, type TTestPages } from '../apps/server/src/testing/rooms/test-pages';

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [name, value = ''] = arg.split('=');
    return [name, value];
  }),
);
const SECONDS = Number(args.seconds ?? 8);
/**
 * Rooms running at once, each measured: shared pages (Chromium's and ffmpeg's libraries) are split between every
 * process that maps them, so a room's share falls as the server runs more of them.
 */
const ROOMS = Number(args.rooms ?? 1);

/** Candidates, each measured alone against `current` (the room's flags as they are). */
const VARIANTS: Record<string, string[]> = {
  current: [],
  // Chromium keeps a spare renderer ready for the next navigation: a second renderer for a one-tab room.
  spare: ['--disable-features=SpareRendererForSitePerProcess'],
  // The network service as a thread of the browser process instead of a utility process of its own.
  network: ['--enable-features=NetworkServiceInProcess2'],
  // Audio output from the browser process instead of an audio utility process.
  audio: ['--disable-features=AudioServiceOutOfProcess'],
  // The GPU process (software compositing here) as a thread of the browser process.
  gpu: ['--in-process-gpu'],
  // One renderer for every site: cross-site frames share it (site isolation off).
  isolation: ['--disable-site-isolation-trials', '--disable-features=IsolateOrigins,site-per-process'],
  // A smaller young generation for V8 (fewer, more frequent scavenges).
  semispace: ['--js-flags=--max-semi-space-size=2'],
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mb = (bytes: number) => Math.round(bytes / 1024 ** 2);

interface TResult {
  variant: string;
  total: number;
  byKind: Map<string, number>;
  processes: number;
  clicked: boolean;
  videoChunks: number;
  audioChunks: number;
}

async function measure(variant: string, flags: string[], pages: TTestPages): Promise<TResult> {
  const dataDir = await mkdtemp(join(tmpdir(), 'rooms-bench-memory-'));
  const engine = new ChromiumRoomEngine({
    chromiumPath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    roomsDataDir: dataDir,
    capacity: ROOMS,
    media: 'h264',
    egress: { start: startEgressProxy, allow: [pages.hostPort] },
    browserArgs: flags,
  });
  const specs = Array.from(
    { length: ROOMS },
    (_, index): TRoomLaunchSpec => ({
      roomId: `memory-${variant}-${index}`,
      width: 1280,
      height: 720,
      maxFrameRate: 30,
      videoBitrateKbps: 2000,
      startUrl: pages.url('/animated'),
      keepData: false,
      autoCloseMs: null,
    }),
  );
  const spec = specs[0]!;
  try {
    for (const each of specs) await engine.start(each);
    const session = engine.session(spec.roomId)!;
    let videoChunks = 0;
    let audioChunks = 0;
    const stops = [
      session.video.subscribe(() => videoChunks++),
      session.audio?.subscribe(() => audioChunks++) ?? (() => {}),
    ];
    // Settled: the pages drawn for a while, the encoders streaming to a participant.
    await sleep(SECONDS * 1000);
    // Every room's processes, summed by kind, then per room.
    const seen = new Set<number>();
    const byKind = new Map<string, number>();
    for (const { roomId } of specs) {
      const roots = [
        engine.browserPid(roomId)!,
        ...engine.mediaPids(roomId),
        ...[engine.sandbox(roomId)?.rootPid].filter((pid): pid is number => pid !== undefined),
      ];
      for (const root of roots) {
        for (const { pid, kind, pssBytes } of await treeMemory(root)) {
          if (seen.has(pid)) continue;
          seen.add(pid);
          byKind.set(kind, (byKind.get(kind) ?? 0) + pssBytes / ROOMS);
        }
      }
    }
    // Still a working browser: a click on the button page lands (pressed again while the page may still load).
    await session.navigate(pages.url('/button'));
    const before = pages.events.filter((event) => event === 'clicked').length;
    let clicked = false;
    for (let attempt = 0; attempt < 10 && !clicked; attempt++) {
      await sleep(500);
      await apply(session, press(0.5, 0.5));
      await sleep(200);
      clicked = pages.events.filter((event) => event === 'clicked').length > before;
    }
    for (const stop of stops) stop();
    const total = [...byKind.values()].reduce((sum, bytes) => sum + bytes, 0);
    return { variant, total, byKind, processes: seen.size / ROOMS, clicked, videoChunks, audioChunks };
  } finally {
    await engine.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const names = args.variants ? args.variants.split(',') : Object.keys(VARIANTS);
  const pages = await startTestPages();
  const results: TResult[] = [];
  try {
    for (const name of names) {
      const flags = VARIANTS[name] ?? name.split(' ');
      results.push(await measure(name, flags, pages));
      console.error(`measured ${name}`);
    }
  } finally {
    await pages.close();
  }
  const kinds = [...new Set(results.flatMap((result) => [...result.byKind.keys()]))].sort();
  const base = results.find((result) => result.variant === 'current')?.total;
  console.log(
    `room memory bench: ${ROOMS} room(s) at 1280×720 and 30 fps, H.264 + Opus, /animated for ${SECONDS} s, PSS per room in MB`,
  );
  console.log(`| variant | flags | per room | vs current | processes | ${kinds.join(' | ')} | works |`);
  console.log(`| --- | --- | --: | --: | --: | ${kinds.map(() => '--:').join(' | ')} | --- |`);
  for (const result of results) {
    const flags = (VARIANTS[result.variant] ?? [result.variant]).join(' ') || '—';
    const delta =
      base === undefined ? '—' : `${mb(result.total - base) > 0 ? '+' : ''}${mb(result.total - base)}`;
    const works =
      result.clicked && result.videoChunks > SECONDS * 20 && result.audioChunks > SECONDS * 20
        ? 'yes'
        : `NO (click ${result.clicked}, video ${result.videoChunks}, sound ${result.audioChunks})`;
    console.log(
      `| ${result.variant} | \`${flags}\` | ${mb(result.total)} | ${delta} | ${result.processes.toFixed(1)} | ${kinds
        .map((kind) => String(mb(result.byKind.get(kind) ?? 0)))
        .join(' | ')} | ${works} |`,
    );
  }
}

await main();
