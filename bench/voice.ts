// Voice mouth-to-ear as members live it: the real server and a running room, one speaker and two listeners, each a
// Chromium page on the room page. The speaker's fake microphone plays a file of short 1 kHz tone bursts (one a
// second, Chromium loops it) while the speaker holds push-to-talk; each page notes, on the wall clock all pages of
// this machine share, when a burst starts: the speaker where its microphone's sound enters the page, each listener
// where the speaker's voice leaves the page's voice node for the speakers (the context's output timestamp). The
// table gives mouth → ear per listener, p50 and p95. The room's page plays a steady tone meanwhile: each listener's
// room sound must not run dry while voice plays (its jitter buffer's underruns, before and during the talk). The
// server runs in this process: its CPU while the speaker talks, less its CPU over as long a spell with nobody
// talking, is what one speaker costs it. Method and results: bench/README.md.
// Run: npm run bench:voice [-- bursts=30]
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@rooms/db';
import { chromium, type Page } from 'playwright-core';
import { QUIET_CHROMIUM_ARGS } from '../apps/server/src/rooms/engine/room-browser';
import { passEntry } from '../apps/web/e2e/room-support';
import { startBenchServer } from './bench-server';

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [name, value = ''] = arg.split('=');
    return [name, value];
  }),
);
const BURSTS = Number(args.bursts ?? 30);
const SAMPLE_RATE = 48_000;
const BURST_MS = 150;
const PERIOD_MS = 1000;

/** 16-bit mono WAV: a 1 kHz burst at the start of every second, for `seconds`. */
function burstsWav(seconds: number): Buffer {
  const frames = SAMPLE_RATE * seconds;
  const data = Buffer.alloc(frames * 2);
  for (let i = 0; i < frames; i++) {
    const inPeriodMs = ((i / SAMPLE_RATE) * 1000) % PERIOD_MS;
    const sample = inPeriodMs < BURST_MS ? 0.5 * Math.sin((2 * Math.PI * 1000 * i) / SAMPLE_RATE) : 0;
    data.writeInt16LE(Math.round(sample * 32767), i * 2);
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(SAMPLE_RATE, 24);
  header.writeUInt32LE(SAMPLE_RATE * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

// An AudioWorklet that reports the context time of each burst's first loud quantum after a quiet spell.
const DETECTOR = `registerProcessor('burst-detector', class extends AudioWorkletProcessor {
  constructor() { super(); this.quietSince = -1; this.loud = false; }
  process(inputs) {
    const input = inputs[0] && inputs[0][0];
    if (!input) return true;
    let sum = 0;
    for (const s of input) sum += s * s;
    const rms = Math.sqrt(sum / input.length);
    if (rms > 0.02) {
      if (!this.loud && currentTime - this.quietSince > 0.3) this.port.postMessage(currentTime);
      this.loud = true;
    } else if (rms < 0.005) {
      if (this.loud || this.quietSince < 0) this.quietSince = currentTime;
      this.loud = false;
    }
    return true;
  }
});`;

/**
 * Installed before the page's own scripts. Speaker: the microphone's stream, tapped where it enters the page.
 * Listener: every voice node ('room-sound' nodes made after the first one, which is the room's own sound), tapped
 * where it leaves for the speakers. Each onset goes to window.__bursts as wall-clock milliseconds.
 */
const INSTRUMENT = `(({ role, detector }) => {
  window.__bursts = [];
  const moduleUrl = URL.createObjectURL(new Blob([detector], { type: 'application/javascript' }));
  const tap = async (context, source, output) => {
    await context.audioWorklet.addModule(moduleUrl);
    const node = new AudioWorkletNode(context, 'burst-detector', { numberOfOutputs: 0 });
    node.port.onmessage = (event) => {
      const now = performance.now();
      let at;
      const stamp = output && context.getOutputTimestamp ? context.getOutputTimestamp() : null;
      if (stamp && stamp.performanceTime) {
        // When this context time reaches the speakers, from the context's own output clock.
        at = stamp.performanceTime + (event.data - stamp.contextTime) * 1000;
      } else {
        at = now - (context.currentTime - event.data) * 1000;
        if (output) at += (context.outputLatency || context.baseLatency || 0) * 1000;
      }
      window.__bursts.push(performance.timeOrigin + at);
    };
    source.connect(node);
  };
  if (role === 'speaker') {
    const original = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
    navigator.mediaDevices.getUserMedia = async (constraints) => {
      const stream = await original(constraints);
      const context = new AudioContext({ sampleRate: 48000, latencyHint: 'interactive' });
      void tap(context, context.createMediaStreamSource(stream), false);
      return stream;
    };
  } else {
    const Original = AudioWorkletNode;
    let made = 0;
    window.AudioWorkletNode = class extends Original {
      constructor(context, name, options) {
        super(context, name, options);
        if (name === 'room-sound' && made++ > 0) void tap(context, this, true);
      }
    };
  }
})`;

/** The instrument for one page, as a script (a plain string: what tsx compiles would not run in the page). */
const instrument = (role: 'speaker' | 'listener') =>
  `${INSTRUMENT}(${JSON.stringify({ role, detector: DETECTOR })});`;

/** This process's CPU (the server's, with the bench's own idle waiting) over `run`, in % of one core. */
async function serverCpuOver(ms: number, run: () => Promise<void>): Promise<number> {
  const start = process.cpuUsage();
  const startedAt = performance.now();
  await run();
  const used = process.cpuUsage(start);
  return ((used.user + used.system) / 1000 / Math.max(ms, performance.now() - startedAt)) * 100;
}

/** The listener's room sound as its quality indicator reports it: times it ran dry, sound dropped. */
async function roomSound(page: Page): Promise<{ underruns: number; droppedMs: number }> {
  const indicator = page.getByTestId('quality-indicator');
  return {
    underruns: Number(await indicator.getAttribute('data-sound-underruns')),
    droppedMs: Number(await indicator.getAttribute('data-sound-dropped')),
  };
}

/** Waits until the listener's page plays the room's sound (its buffer reported). */
async function soundPlaying(page: Page): Promise<void> {
  await page.waitForFunction(
    () => document.querySelector('[data-testid="quality-indicator"]')?.getAttribute('data-sound-buffer'),
    undefined,
    { timeout: 30_000 },
  );
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'rooms-voice-bench-'));
  const wav = join(dir, 'bursts.wav');
  await writeFile(wav, burstsWav(10));
  const server = await startBenchServer({ name: 'voice', postgresPort: await freePort() });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      ...QUIET_CHROMIUM_ARGS,
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-audio-capture=${wav}`,
      '--autoplay-policy=no-user-gesture-required',
    ],
  });
  try {
    const room = await server.call<{ id: string }>('/api/room/createRoom', {
      name: `voice-${Date.now().toString(36)}`,
      password: 'sesame',
      region: 'local',
      image: 'chromium-url',
      startUrl: server.pages.url('/tone'),
      // The three members' pages share this machine's two cores with the room and the server (members have their own
      // computers): a small, slow picture leaves them the time a 720p30 one would take (with it, every page's room
      // sound ran dry ~70 times in 32 s before anyone talked, and voice took 320 ms).
      width: 640,
      height: 360,
      maxFrameRate: 10,
    });
    await server.call('/api/room/startRoom', { id: room.id });
    /** A guest on the room's share link, joined, with the bench's instrument in the page. */
    const guest = async (nickname: string, role: 'speaker' | 'listener') => {
      // The instrument's worklet comes from a blob: URL, which the app's content security policy would refuse.
      const context = await browser.newContext({
        baseURL: `http://127.0.0.1:${server.port}`,
        bypassCSP: true,
      });
      const page = await context.newPage();
      await page.addInitScript({ content: instrument(role) });
      await page.goto(`/share/room/${room.id}#password=sesame`);
      await passEntry(page, nickname);
      return page;
    };
    const listeners = [await guest('Lena', 'listener'), await guest('Liam', 'listener')];
    const speaker = await guest('Sam', 'speaker');
    const talk = speaker.getByTestId('voice-talk');
    await talk.waitFor();
    const talkMs = (BURSTS + 2) * PERIOD_MS;
    // Everyone in, the room's tone playing on each listener: a spell as long as the talk with nobody talking.
    await Promise.all(listeners.map((page) => soundPlaying(page)));
    const atStart = await Promise.all(listeners.map(roomSound));
    const quiet = await serverCpuOver(talkMs, () => speaker.waitForTimeout(talkMs));
    const before = await Promise.all(listeners.map(roomSound));
    await talk.hover();
    await speaker.mouse.down();
    const talked = await serverCpuOver(talkMs, () => speaker.waitForTimeout(talkMs));
    const talking = await talk.getAttribute('data-talking');
    await speaker.mouse.up();
    const after = await Promise.all(listeners.map(roomSound));
    if (talking !== 'true')
      console.log(`the speaker was not talking (microphone: ${await talk.getAttribute('data-mic')})`);
    const said = await speaker.evaluate(() => (window as unknown as { __bursts: number[] }).__bursts);
    console.log(`voice mouth → ear, ${BURSTS} bursts of ${BURST_MS} ms at 1 kHz, 1 speaker, 2 listeners`);
    console.log(`bursts said: ${said.length}`);
    console.log('| listener | heard | p50 ms | p95 ms | min ms | max ms |');
    console.log('| -------- | ----: | -----: | -----: | -----: | -----: |');
    for (const [index, page] of listeners.entries()) {
      const heard = await page.evaluate(() => (window as unknown as { __bursts: number[] }).__bursts);
      const delays = heard.flatMap((at) => {
        const source = said.filter((s) => s <= at && at - s < PERIOD_MS).at(-1);
        return source === undefined ? [] : [at - source];
      });
      const row = [
        `listener ${index + 1}`,
        delays.length,
        percentile(delays, 50).toFixed(0),
        percentile(delays, 95).toFixed(0),
        Math.min(...delays).toFixed(0),
        Math.max(...delays).toFixed(0),
      ];
      console.log(`| ${row.join(' | ')} |`);
    }
    console.log('');
    console.log(
      `room sound on each listener over ${talkMs / 1000} s with nobody talking, then as long with voice playing:`,
    );
    console.log('| listener | ran dry, quiet | dropped ms, quiet | ran dry, voice | dropped ms, voice |');
    console.log('| -------- | -------------: | ----------------: | -------------: | ----------------: |');
    for (const [index, start] of atStart.entries()) {
      const [middle, end] = [before[index]!, after[index]!];
      const row = [
        middle.underruns - start.underruns,
        middle.droppedMs - start.droppedMs,
        end.underruns - middle.underruns,
        end.droppedMs - middle.droppedMs,
      ];
      console.log(`| listener ${index + 1} | ${row.join(' | ')} |`);
    }
    console.log('');
    console.log(
      `server CPU (this process): ${quiet.toFixed(2)} % of a core with nobody talking, ${talked.toFixed(2)} % while one speaker talks: ${(talked - quiet).toFixed(2)} % for the speaker`,
    );
  } finally {
    await browser.close();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
