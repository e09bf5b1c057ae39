// Input → picture latency as participants live it: the real server (its own embedded PostgreSQL and SMTP
// listener, the built web app), a room at 1280×720 opening a loopback page whose whole surface changes colour on
// mousedown and that plays a quiet tone, and two participant pages in Chromium on the room page: the driver (in
// control) presses the picture with a real mouse press through playwright, the watcher only looks. For every press
// each page notes when the changed picture reached its socket, came out of its decoder and was painted on its
// canvas; the table gives press → paint per role, and the split of the budget. Method: bench/README.md.
// Run: npm run bench:e2e [-- presses=30 paths=h264,screencast fps=30,60 repeat=1 web=apps/web/dist]
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, Plan, startEmbeddedPostgres } from '@rooms/db';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { buildApp } from '../apps/server/src/app';
import { parseEnv } from '../apps/server/src/env';
import { QUIET_CHROMIUM_ARGS } from '../apps/server/src/rooms/engine/room-browser';
import { startSmtpListener, type TSmtpListener } from '../apps/server/src/testing/smtp-listener';
import type { TTestServer } from '../apps/server/src/testing/test-server';
import { enterRoom, roomCard, stopAndDeleteRoom } from '../apps/web/e2e/room-support';
import { register, uniqueUser } from '../apps/web/e2e/support';

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [name, value = ''] = arg.split('=');
    return [name, value];
  }),
);
const list = (name: string, fallback: string[]) => (args[name] ? args[name].split(',') : fallback);
const PRESSES = Number(args.presses ?? 30);
const REPEAT = Number(args.repeat ?? 1);
const PATHS = list('paths', ['h264', 'screencast']) as ('h264' | 'screencast')[];
const FRAME_RATES = list('fps', ['30', '60']).map(Number);
const WEB_DIST = args.web;
const PRESS_TIMEOUT_MS = 3000;

/** The two colours the page alternates between, and how close a painted pixel must come to count as one. */
const COLOURS = [
  [34, 170, 102],
  [204, 51, 51],
] as const;
const MATCH_DISTANCE = 60;

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>latency page</title>
<style>html,body{margin:0;height:100%;overflow:hidden;background:rgb(${COLOURS[0].join(',')})}</style></head><body>
<script>
let presses = 0;
addEventListener('mousedown', () => {
  presses++;
  document.body.style.background = presses % 2 ? 'rgb(${COLOURS[1].join(',')})' : 'rgb(${COLOURS[0].join(',')})';
  fetch('/event/pressed-' + presses);
  // A short loud beep in the same task: where it and the new colour land on a participant's screen and
  // speakers gives the lip sync they live.
  const beep = audio.createOscillator();
  const level = audio.createGain();
  level.gain.value = 0.6;
  beep.frequency.value = 880;
  beep.connect(level).connect(audio.destination);
  beep.start();
  beep.stop(audio.currentTime + 0.05);
});
// A quiet tone, so the room has sound and a watcher's picture is paced against it as with any real page.
const audio = new AudioContext();
const tone = audio.createOscillator();
const gain = audio.createGain();
gain.gain.value = 0.05;
tone.frequency.value = 440;
tone.connect(gain).connect(audio.destination);
tone.start();
</script></body></html>`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}
const sortedCopy = (values: number[]) => [...values].sort((a, b) => a - b);

async function servePage(): Promise<{ origin: string; server: Server; events: string[] }> {
  const events: string[] = [];
  const server = createHttpServer((request, response) => {
    response.setHeader('cache-control', 'no-store');
    if (request.url?.startsWith('/event/')) {
      events.push(request.url.slice('/event/'.length));
      response.end();
      return;
    }
    response.setHeader('content-type', 'text/html; charset=utf-8');
    response.end(PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('no address');
  return { origin: `http://127.0.0.1:${address.port}`, server, events };
}

/** What the harness in a participant page recorded for one press (times on that page's performance clock). */
interface TPageRecord {
  /** The driver's pointerdown on the picture. */
  pressAt: number | null;
  /** The first paint whose picture shows the expected colour. */
  paintAt: number | null;
  /** The painted picture's server timestamp (H.264: from the VideoFrame), null for a screencast bitmap. */
  paintedTimestamp: number | null;
  /** When the painted picture (or, on the screencast, the first picture after arming) reached the socket. */
  arrivalAt: number | null;
  /** Its server timestamp, as the frame header said. */
  arrivalTimestamp: number | null;
  /** When the decoder gave the painted picture out (H.264). */
  decodedAt: number | null;
  /** The quality indicator's latency figure at the time of reading, if it shows one. */
  indicatorMs: number | null;
  /**
   * When the page's beep reached this participant's speakers (its onset in the player's analyser, mapped
   * through the output latency), or null.
   */
  beepAt: number | null;
  /**
   * The beep's server timestamp, from the player's own sound clock (the worklet's last report before the onset):
   * beep stamp − painted picture's stamp is the room's own skew between sound and picture.
   */
  beepTimestamp: number | null;
  /** Median of socket arrival − server timestamp of the sound packets since arming (page clock − server clock). */
  soundLag: number | null;
  /** p90 − p10 of the same, ms. */
  soundSpread: number | null;
  /** The player's own figures from the indicator: shown picture − heard sound, and the sound's extra delay. */
  avOffset: number | null;
  soundDelay: number | null;
  /** Sound queued in the player's jitter buffer, ms, as the indicator says (data-sound-buffer). */
  soundBuffer: number | null;
  /** Times the player's sound ran dry so far (data-sound-underruns). */
  soundUnderruns: number | null;
  /** Sound the player dropped so far to keep its buffer short, ms (data-sound-dropped). */
  soundDropped: number | null;
  outputLatencyMs: number | null;
}

interface THarness {
  arm(target: [number, number, number], distance: number): void;
  /** Whether the changed picture was painted since arming (and its beep heard, with sound). */
  done(): boolean;
  /** What was recorded since arming; disarms. */
  read(): TPageRecord;
}

/**
 * Runs in every participant page before the app: notes the arrival of media frames on the room socket, the
 * decoder's output and the canvas paints, and while armed finds the first paint whose picture shows the target
 * colour (a 4×4 read of a 16×16 patch in the picture's middle, from the picture itself, never from the room's
 * canvas). It costs nothing while not armed beyond the wrappers' calls.
 */
function installHarness(): void {
  type TState = {
    armed: boolean;
    target: [number, number, number];
    distance: number;
    pressAt: number | null;
    paint: { at: number; timestamp: number | null } | null;
    arrivals: { at: number; timestamp: number; codec: number }[];
    decoded: { at: number; timestamp: number }[];
    sounds: number[];
    beepAt: number | null;
    beepTimestamp: number | null;
    armedAt: number;
  };
  const state: TState = {
    armed: false,
    target: [0, 0, 0],
    distance: 0,
    pressAt: null,
    paint: null,
    arrivals: [],
    decoded: [],
    sounds: [],
    beepAt: null,
    beepTimestamp: null,
    armedAt: 0,
  };
  const probe = new OffscreenCanvas(4, 4);
  const probeContext = probe.getContext('2d', { willReadFrequently: true });

  const NativeSocket = window.WebSocket;
  class TappedSocket extends NativeSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      this.addEventListener('message', (event: MessageEvent) => {
        if (!state.armed || !(event.data instanceof ArrayBuffer) || event.data.byteLength < 16) return;
        const view = new DataView(event.data);
        const codec = view.getUint8(1);
        if (codec === 3) {
          state.sounds.push(performance.now() - view.getFloat64(8));
          return;
        }
        state.arrivals.push({ at: performance.now(), timestamp: view.getFloat64(8), codec });
      });
    }
  }
  window.WebSocket = TappedSocket;

  if (typeof VideoDecoder !== 'undefined') {
    const NativeDecoder = VideoDecoder;
    class TappedDecoder extends NativeDecoder {
      constructor(init: VideoDecoderInit) {
        super({
          ...init,
          output: (frame: VideoFrame) => {
            if (state.armed) state.decoded.push({ at: performance.now(), timestamp: frame.timestamp / 1000 });
            init.output(frame);
          },
        });
      }
    }
    window.VideoDecoder = TappedDecoder;
  }

  const draw = CanvasRenderingContext2D.prototype.drawImage;
  CanvasRenderingContext2D.prototype.drawImage = function (
    this: CanvasRenderingContext2D,
    ...rest: unknown[]
  ) {
    (draw as (...drawArgs: unknown[]) => void).apply(this, rest);
    const image = rest[0] as VideoFrame | ImageBitmap;
    if (!state.armed || state.paint || !probeContext || this.canvas.dataset.testid !== 'room-canvas') return;
    const at = performance.now();
    const width = 'displayWidth' in image ? image.displayWidth : image.width;
    const height = 'displayHeight' in image ? image.displayHeight : image.height;
    probeContext.drawImage(image, width / 2 - 8, height / 2 - 8, 16, 16, 0, 0, 4, 4);
    const { data } = probeContext.getImageData(0, 0, 4, 4);
    let r = 0;
    let g = 0;
    let b = 0;
    for (let i = 0; i < data.length; i += 4) {
      r += data[i] ?? 0;
      g += data[i + 1] ?? 0;
      b += data[i + 2] ?? 0;
    }
    const n = data.length / 4;
    const [tr, tg, tb] = state.target;
    const distance = Math.hypot(r / n - tr, g / n - tg, b / n - tb);
    if (distance < state.distance) {
      const paint = {
        at: inFrame ? at : Number.NaN,
        timestamp: 'timestamp' in image && image.timestamp !== null ? image.timestamp / 1000 : null,
      };
      state.paint = paint;
      // Drawn between frames, the picture reaches the screen with the next frame: that frame's start counts.
      if (!inFrame) nativeFrame(() => (paint.at = performance.now()));
    }
  };

  // Whether an animation-frame callback runs now: a picture drawn there is in this frame.
  let inFrame = false;
  const nativeFrame = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (callback) =>
    nativeFrame((time) => {
      inFrame = true;
      try {
        callback(time);
      } finally {
        inFrame = false;
      }
    });

  // The player's analyser sits after its volume, just before the speakers: the beep's onset in it, plus the
  // output latency, is when the participant hears it.
  let analyser: AnalyserNode | null = null;
  const createAnalyser = AudioContext.prototype.createAnalyser;
  AudioContext.prototype.createAnalyser = function (this: AudioContext) {
    analyser = createAnalyser.call(this);
    return analyser;
  };
  // The worklet's reports (which server timestamp it rendered at which context time), as the player gets them.
  let reports: { contextTime: number; timestamp: number | null }[] = [];
  const NativeWorkletNode = window.AudioWorkletNode;
  window.AudioWorkletNode = class extends NativeWorkletNode {
    constructor(...init: ConstructorParameters<typeof AudioWorkletNode>) {
      super(...init);
      this.port.addEventListener('message', (event: MessageEvent) => {
        if (event.data?.type !== 'report') return;
        reports.push({ contextTime: event.data.contextTime, timestamp: event.data.timestamp });
        if (reports.length > 200) reports = reports.slice(-100);
      });
    }
  };
  let samples = new Float32Array(0);
  const listen = () => {
    if (!state.armed) return;
    nativeFrame(listen);
    const node = analyser;
    if (!node || state.beepAt !== null) return;
    const context = node.context as AudioContext;
    if (samples.length !== node.fftSize) samples = new Float32Array(node.fftSize);
    node.getFloatTimeDomainData(samples);
    const onset = samples.findIndex((sample) => Math.abs(sample) > 0.25);
    if (onset < 0) return;
    const onsetContextTime = context.currentTime - (samples.length - onset) / context.sampleRate;
    const output = context.getOutputTimestamp();
    const heard =
      output.performanceTime && output.contextTime !== undefined
        ? output.performanceTime + (onsetContextTime - output.contextTime) * 1000
        : performance.now() - (context.currentTime - onsetContextTime - context.outputLatency) * 1000;
    // A beep still sounding from before the press does not count.
    if (heard <= state.armedAt) return;
    state.beepAt = heard;
    const report = reports.findLast(
      (item) => item.contextTime <= onsetContextTime && onsetContextTime - item.contextTime < 0.1,
    );
    if (report?.timestamp != null) {
      state.beepTimestamp = report.timestamp + (onsetContextTime - report.contextTime) * 1000;
    }
  };

  addEventListener(
    'pointerdown',
    (event) => {
      if (state.armed) state.pressAt = event.timeStamp;
    },
    { capture: true },
  );

  const number = (text: string | undefined) => (text ? Number(text) : null);
  const harness: THarness = {
    arm(target, distance) {
      Object.assign(state, {
        armed: true,
        target,
        distance,
        pressAt: null,
        paint: null,
        arrivals: [],
        decoded: [],
        sounds: [],
        beepAt: null,
        beepTimestamp: null,
        armedAt: performance.now(),
      });
      nativeFrame(listen);
    },
    done: () => {
      const paint = state.paint;
      if (paint === null || Number.isNaN(paint.at)) return false;
      // With sound, wait for the beep too (half a second at most after the picture).
      return analyser === null || state.beepAt !== null || performance.now() - paint.at > 500;
    },
    read() {
      const paint = state.paint;
      state.armed = false;
      const painted = paint?.timestamp ?? null;
      const arrival =
        painted === null
          ? state.arrivals[0]
          : state.arrivals.find((item) => Math.abs(item.timestamp - painted) < 0.5);
      const decoded =
        painted === null ? undefined : state.decoded.find((item) => Math.abs(item.timestamp - painted) < 0.5);
      const indicator = document.querySelector<HTMLElement>('[data-testid="quality-indicator"]');
      // The indicator's own figure (data-latency), or before it had one the number it showed as latency.
      const shown = /latency (\d+) ms/.exec(indicator?.textContent ?? '')?.[1];
      const figure = Number(indicator?.dataset.latency ?? shown ?? Number.NaN);
      return {
        pressAt: state.pressAt,
        paintAt: paint && !Number.isNaN(paint.at) ? paint.at : null,
        paintedTimestamp: painted,
        arrivalAt: arrival?.at ?? null,
        arrivalTimestamp: arrival?.timestamp ?? null,
        decodedAt: decoded?.at ?? null,
        indicatorMs: Number.isFinite(figure) ? figure : null,
        beepAt: state.beepAt,
        beepTimestamp: state.beepTimestamp,
        soundLag: state.sounds.length
          ? (state.sounds.sort((a, b) => a - b)[state.sounds.length >> 1] ?? null)
          : null,
        // How unevenly the sound arrives: the spread of its lag (p90 − p10), what the jitter buffer must absorb.
        soundSpread:
          state.sounds.length >= 10
            ? (state.sounds[Math.floor(state.sounds.length * 0.9)] ?? 0) -
              (state.sounds[Math.floor(state.sounds.length * 0.1)] ?? 0)
            : null,
        avOffset: number(indicator?.dataset.avOffset),
        soundDelay: number(indicator?.dataset.soundDelay),
        soundBuffer: number(indicator?.dataset.soundBuffer),
        soundUnderruns: number(indicator?.dataset.soundUnderruns),
        soundDropped: number(indicator?.dataset.soundDropped),
        outputLatencyMs: analyser ? (analyser.context as AudioContext).outputLatency * 1000 : null,
      };
    },
  };
  (window as unknown as { __latency: THarness }).__latency = harness;
}

/**
 * This page's performance clock relative to ours (page time + offset = our time): the page and this process
 * both count on the system's monotonic clock, so the offset is fixed; the round trip with the least delay
 * bounds it best.
 */
async function clockOffset(page: Page): Promise<number> {
  let best = { rtt: Number.POSITIVE_INFINITY, offset: 0 };
  for (let i = 0; i < 15; i++) {
    const sent = performance.now();
    const pageNow = await page.evaluate(() => performance.now());
    const back = performance.now();
    if (back - sent < best.rtt) best = { rtt: back - sent, offset: (sent + back) / 2 - pageNow };
  }
  return best.offset;
}

interface TSample {
  role: 'driver' | 'watcher';
  /** press → paint, ms. */
  total: number;
  /** press → the changed picture's server timestamp (the room browser, capture, encoding and the way in). */
  toServer: number | null;
  /** server timestamp → socket arrival in the page. */
  toSocket: number | null;
  /** socket arrival → decoder output (H.264). */
  decode: number | null;
  /** socket arrival → paint. */
  socketToPaint: number | null;
  /** What the page's quality indicator said right after. */
  indicator: number | null;
  /** Beep heard − changed picture painted, ms (positive: the sound comes after the picture). */
  av: number | null;
  /** press → the beep's server timestamp (the room browser's sound output, the sink, the encoder's clock). */
  toSoundStamp: number | null;
  /** Sound packets: socket arrival − server timestamp. */
  soundLag: number | null;
  soundSpread: number | null;
  playerOffset: number | null;
  soundDelay: number | null;
  soundBuffer: number | null;
  soundUnderruns: number | null;
  soundDropped: number | null;
  outputLatency: number | null;
}

/** Sound on in a page (the autoplay rule may want one click); resolves once it plays or after a while. */
async function soundOn(page: Page): Promise<string> {
  const sound = page.locator('[data-testid="room-sound"], [data-testid="room-unmute"]').first();
  await sound.waitFor({ timeout: 30_000 }).catch(() => undefined);
  if (await page.getByTestId('room-unmute').isVisible()) await page.getByTestId('room-unmute').click();
  await page
    .locator('[data-testid="room-sound"][data-status="playing"]')
    .waitFor({ timeout: 15_000 })
    .catch(() => undefined);
  return (
    (await page
      .getByTestId('room-sound')
      .getAttribute('data-status')
      .catch(() => null)) ?? 'none'
  );
}

/** Creates a room at 1280×720 and `fps` opening `startUrl` from the dashboard, and starts it. */
async function createRoom(page: Page, startUrl: string, fps: number): Promise<string> {
  await page.goto('/dashboard');
  await page.getByTestId('topbar-create-room').click();
  const dialog = page.getByTestId('create-room-dialog');
  await dialog.getByTestId('room-name').waitFor();
  const name = `latency-${fps}-${Date.now().toString(36)}`;
  await dialog.getByTestId('room-name').fill(name);
  await dialog.getByTestId('room-region').selectOption('local');
  await dialog.getByTestId('room-image').selectOption('chromium-url');
  await dialog.getByTestId('room-start-url').fill(startUrl);
  await dialog.getByTestId('room-resolution').selectOption('1280x720');
  await dialog.getByTestId('room-fps').selectOption(String(fps));
  await dialog.getByTestId('room-bitrate').selectOption('2000');
  await dialog.getByTestId('create-room-submit').click();
  await dialog.waitFor({ state: 'detached' });
  await roomCard(page, name).getByTestId('room-start').click();
  await page
    .locator(`[data-testid="room-card"][data-room-name="${name}"][data-state="running"]`)
    .waitFor({ timeout: 60_000 });
  return name;
}

async function measureRoom(
  browser: Browser,
  server: TTestServer,
  pageServer: { origin: string; events: string[] },
  path: string,
  fps: number,
): Promise<{ samples: TSample[]; missed: { driver: number; watcher: number }; sound: string }> {
  const driverContext = await newContext(browser, server.url);
  const driver = await driverContext.newPage();
  const owner = uniqueUser('latency');
  await register(driver, server, owner);
  const name = await createRoom(driver, `${pageServer.origin}/`, fps);
  let watcherContext: BrowserContext | undefined;
  try {
    await enterRoom(driver, name, 'Driver');
    await driver.locator('[data-testid="room-page"][data-controlling="true"]').waitFor({ timeout: 30_000 });
    // The watcher: the same account in another window (as a second device would be), entering after the driver.
    watcherContext = await newContext(browser, server.url, await driverContext.storageState());
    const watcher = await watcherContext.newPage();
    await watcher.goto('/dashboard');
    await enterRoom(watcher, name, 'Watcher');
    await watcher.locator('[data-testid="room-page"][data-controlling="false"]').waitFor({ timeout: 30_000 });
    const indicator = (page: Page) => page.getByTestId('quality-indicator');
    for (const page of [driver, watcher]) {
      await indicator(page).waitFor({ state: 'attached', timeout: 30_000 });
      const wanted = path === 'h264' ? 'h264' : 'jpeg';
      for (let i = 0; i < 60 && (await indicator(page).getAttribute('data-path')) !== wanted; i++)
        await sleep(500);
    }
    const sound = path === 'h264' ? `${await soundOn(driver)}/${await soundOn(watcher)}` : 'none';
    await sleep(3000); // the pacing and the sound delay settle
    const offsets = { driver: await clockOffset(driver), watcher: await clockOffset(watcher) };

    const canvas = driver.getByTestId('room-canvas');
    const box = await canvas.boundingBox();
    if (!box) throw new Error('no canvas');
    const samples: TSample[] = [];
    const missed = { driver: 0, watcher: 0 };
    let presses = pageServer.events.filter((event) => event.startsWith('pressed-')).length;
    for (let i = 0; i < PRESSES; i++) {
      const target = COLOURS[(presses + 1) % 2] as unknown as [number, number, number];
      for (const page of [driver, watcher]) {
        await page.evaluate(
          ([colour, distance]) =>
            (window as unknown as { __latency: THarness }).__latency.arm(colour, distance),
          [target, MATCH_DISTANCE] as const,
        );
      }
      // A little off the middle, differently each time, so presses do not line up with the frame clock.
      await driver.mouse.move(box.x + box.width * (0.4 + Math.random() * 0.2), box.y + box.height * 0.4);
      await sleep(Math.random() * 40);
      await driver.mouse.down();
      const deadline = performance.now() + PRESS_TIMEOUT_MS;
      await waitForPaints([driver, watcher], deadline);
      const records = { driver: await readHarness(driver), watcher: await readHarness(watcher) };
      await driver.mouse.up();
      const pressAt = records.driver.pressAt;
      for (const role of ['driver', 'watcher'] as const) {
        const record = records[role];
        const offset = offsets[role];
        if (pressAt === null || record.paintAt === null) {
          missed[role]++;
          continue;
        }
        const press = pressAt + offsets.driver;
        const paint = record.paintAt + offset;
        const arrival = record.arrivalAt === null ? null : record.arrivalAt + offset;
        const decoded = record.decodedAt === null ? null : record.decodedAt + offset;
        const serverTimestamp = record.arrivalTimestamp;
        samples.push({
          role,
          total: paint - press,
          toServer: serverTimestamp === null ? null : serverTimestamp - press,
          toSocket: serverTimestamp === null || arrival === null ? null : arrival - serverTimestamp,
          decode: decoded === null || arrival === null ? null : decoded - arrival,
          socketToPaint: arrival === null ? null : paint - arrival,
          indicator: record.indicatorMs,
          av: record.beepAt === null ? null : record.beepAt - record.paintAt,
          toSoundStamp: record.beepTimestamp === null ? null : record.beepTimestamp - press,
          soundLag: record.soundLag === null ? null : record.soundLag + offset,
          soundSpread: record.soundSpread,
          playerOffset: record.avOffset,
          soundDelay: record.soundDelay,
          soundBuffer: record.soundBuffer,
          soundUnderruns: record.soundUnderruns,
          soundDropped: record.soundDropped,
          outputLatency: record.outputLatencyMs,
        });
      }
      presses = pageServer.events.filter((event) => event.startsWith('pressed-')).length;
      // A quiet screen before the next press.
      await sleep(300 + Math.random() * 200);
    }
    await watcherContext.close();
    watcherContext = undefined;
    await stopAndDeleteRoom(driver, name);
    return { samples, missed, sound };
  } finally {
    await watcherContext?.close();
    await driverContext.close();
  }
}

async function waitForPaints(pages: Page[], deadline: number): Promise<void> {
  for (const page of pages) {
    // At least 1 ms: Playwright reads a timeout of 0 as none, and a page still waiting once the deadline has
    // passed (a press the room missed) would hold the bench for good.
    const left = Math.max(1, deadline - performance.now());
    await page
      .waitForFunction(() => (window as unknown as { __latency: THarness }).__latency.done(), undefined, {
        timeout: left,
        polling: 'raf',
      })
      .catch(() => undefined);
  }
}

async function readHarness(page: Page): Promise<TPageRecord> {
  return page.evaluate(() => (window as unknown as { __latency: THarness }).__latency.read());
}

async function newContext(
  browser: Browser,
  baseURL: string,
  storageState?: Awaited<ReturnType<BrowserContext['storageState']>>,
) {
  const context = await browser.newContext({
    baseURL,
    viewport: { width: 1280, height: 800 },
    locale: 'en-US',
    ...(storageState ? { storageState } : {}),
  });
  // As source text: tsx names functions through an `__name` helper that the page does not have.
  await context.addInitScript({ content: `var __name = (f) => f; (${installHarness.toString()})();` });
  context.on('weberror', (error) => console.error('[page error]', error.error().message));
  return context;
}

/** The median (or another percentile) of `values` in whole ms, a dash without any. */
function summary(values: number[], p = 50): string {
  if (values.length === 0) return '—';
  return `${percentile(sortedCopy(values), p).toFixed(0)}`;
}

/** How much a participant's counter (sound underruns, dropped sound) grew from the first press to the last. */
function during(samples: TSample[], key: 'soundUnderruns' | 'soundDropped'): string {
  const counts = samples.flatMap((sample) => (sample[key] === null ? [] : [sample[key]]));
  const first = counts[0];
  const last = counts.at(-1);
  return first === undefined || last === undefined ? '—' : String(last - first);
}

/**
 * The participants' Chromium, as a participant's own computer would run it beside the room: no higher priority
 * than the room. Run as root, Chromium raises its compositor, IO and display threads to nice −8 and its audio
 * threads to real time, ahead of the room's browser (an unprivileged user that cannot) and its encoders (−5) on
 * the same two cores, so the room under test would lose to the pages that watch it. A wrapper drops the
 * capability to raise priority (CAP_SYS_NICE); the real time limit of root processes is already 0.
 */
async function participantChromium(dir: string): Promise<string> {
  const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (process.getuid?.() !== 0) return chromiumPath;
  const wrapper = join(dir, 'participant-chromium');
  await writeFile(
    wrapper,
    `#!/bin/sh\nexec setpriv --inh-caps=-sys_nice --bounding-set=-sys_nice -- ${chromiumPath} "$@"\n`,
    { mode: 0o755 },
  );
  return wrapper;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'rooms-bench-e2e-'));
  await chmod(dir, 0o755);
  const postgres = await startEmbeddedPostgres({
    dataDir: join(dir, 'pg'),
    port: await freePort(),
    postgresFlags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
  });
  const pageServer = await servePage();
  const browser = await chromium.launch({
    executablePath: await participantChromium(dir),
    args: ['--no-sandbox', ...QUIET_CHROMIUM_ARGS],
  });
  const rows: string[] = [];
  const splits: string[] = [];
  try {
    console.log(
      `e2e latency bench: 1280×720, 2000 kbit/s, ${PRESSES} presses per room × ${REPEAT}, ` +
        `${availableParallelism()} CPUs, Node ${process.version}, Chromium ${browser.version()}, load ${loadavg()
          .map((value) => value.toFixed(1))
          .join(' ')}`,
    );
    for (const path of PATHS) {
      const server = await startServer(postgres.url, path, new URL(pageServer.origin).host);
      try {
        for (const fps of FRAME_RATES) {
          for (let run = 0; run < REPEAT; run++) {
            const { samples, missed, sound } = await measureRoom(browser, server, pageServer, path, fps);
            for (const role of ['driver', 'watcher'] as const) {
              const mine = samples.filter((sample) => sample.role === role);
              const totals = sortedCopy(mine.map((sample) => sample.total));
              const pick = (key: keyof TSample) =>
                mine
                  .map((sample) => sample[key])
                  .filter((value): value is number => typeof value === 'number');
              rows.push(
                `| ${[
                  path.padEnd(10),
                  String(fps).padStart(3),
                  role.padEnd(7),
                  `${percentile(totals, 50).toFixed(0)} ms`.padStart(6),
                  `${percentile(totals, 95).toFixed(0)} ms`.padStart(6),
                  `${totals.length}${missed[role] ? ` (+${missed[role]} missed)` : ''}`.padStart(3),
                  summary(pick('toServer')).padStart(5),
                  summary(pick('toSocket')).padStart(5),
                  summary(pick('decode')).padStart(5),
                  summary(pick('socketToPaint')).padStart(5),
                  summary(pick('av')).padStart(5),
                  summary(pick('av').map(Math.abs), 95).padStart(5),
                  summary(pick('indicator')).padStart(5),
                  summary(
                    mine.flatMap((sample) =>
                      sample.indicator === null ? [] : [sample.indicator - sample.total],
                    ),
                  ).padStart(5),
                ].join(' | ')} |`,
              );
              console.log(rows.at(-1));
              splits.push(
                `${path} ${fps} fps run ${run + 1} ${role}: sound ${sound}; sound packets arrive ` +
                  `${summary(pick('soundLag'))} ms after their timestamp (spread p90 − p10 ${summary(pick('soundSpread'))} ms); press → the beep's stamp ` +
                  `${summary(pick('toSoundStamp'))} ms; the player's A/V offset ` +
                  `${summary(pick('playerOffset'))} ms, sound delay ${summary(pick('soundDelay'))} ms, sound buffered ` +
                  `${summary(pick('soundBuffer'))} ms, ${during(mine, 'soundUnderruns')} underruns and ${during(mine, 'soundDropped')} ms dropped over the presses, output ` +
                  `latency ${summary(pick('outputLatency'))} ms; A/V per press, sorted: ` +
                  `${pick('av')
                    .sort((a, b) => a - b)
                    .map((value) => value.toFixed(0))
                    .join(' ')}`,
              );
            }
          }
        }
      } finally {
        await server.close();
      }
    }
  } finally {
    await browser.close();
    pageServer.server.close();
    await postgres.stop();
    await rm(dir, { recursive: true, force: true });
  }
  console.log();
  console.log(
    '| path       | fps | role    | p50    | p95    | n   | press→server | server→socket | socket→decoded | socket→paint | A/V p50 | abs(A/V) p95 | indicator | indicator − measured |',
  );
  console.log(
    '| ---------- | --: | ------- | -----: | -----: | --: | -----------: | ------------: | -------------: | -----------: | ------: | -----------: | --------: | -------------------: |',
  );
  for (const row of rows) console.log(row);
  console.log(
    '(split columns: medians in ms; A/V: beep heard − new colour painted on the same screen, positive when the ' +
      "sound is later; indicator: the quality indicator's latency figure read after each press, and its difference " +
      'from the press → paint measured for that press, median)',
  );
  for (const line of splits) console.log(line);
}

/** The real server on loopback, as the browser journeys run it, on its own database of `postgresUrl`. */
async function startServer(postgresUrl: string, media: string, allow: string): Promise<TTestServer> {
  const smtp: TSmtpListener = await startSmtpListener();
  const config = parseEnv({
    NODE_ENV: 'test',
    DATABASE_URL: postgresUrl,
    SMTP_URL: smtp.url,
    APP_SECRET: 'bench-secret-that-is-long-enough-for-hmac-keys',
    LOG_LEVEL: 'error',
    PORT: '0',
    BILLING_JOBS: 'off',
    ROOM_MEDIA: media,
    ROOM_EGRESS_ALLOW: allow,
    ...(WEB_DIST ? { WEB_DIST } : {}),
  });
  const app = await buildApp(config, { logger: { level: config.logLevel } });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const url = `http://127.0.0.1:${address && typeof address === 'object' ? address.port : 0}`;
  // The bench's own database: the Free plan may stream at 60 fps, so one account measures both caps.
  await app.orm.em.fork().nativeUpdate(Plan, { code: 'free' }, { maxFrameRate: 60 });
  return {
    app,
    url,
    config,
    smtp,
    async close() {
      await app.close();
      await smtp.close();
    },
  };
}

await main();
