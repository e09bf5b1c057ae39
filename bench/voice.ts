// Voice mouth-to-ear as members live it: the real server and a running room, one speaker and two listeners, each a
// Chromium page on the room page. The speaker's fake microphone plays a file of short 1 kHz tone bursts (one a
// second, Chromium loops it) while the speaker holds push-to-talk; each page notes, on the wall clock all pages of
// this machine share, when a burst starts: the speaker where its microphone's sound enters the page, each listener
// where the speaker's voice leaves the page's voice node for the speakers (the context's output timestamp). The
// table gives mouth → ear per listener, p50 and p95. Method and results: bench/README.md.
// Run: npm run bench:voice [-- bursts=30]
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@rooms/db';
import { chromium } from 'playwright-core';
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
      startUrl: server.pages.url('/'),
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
    await talk.hover();
    await speaker.mouse.down();
    await speaker.waitForTimeout((BURSTS + 2) * PERIOD_MS);
    const talking = await talk.getAttribute('data-talking');
    await speaker.mouse.up();
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
  } finally {
    await browser.close();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
