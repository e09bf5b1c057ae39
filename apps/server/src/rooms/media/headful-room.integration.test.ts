// The room browser on the media pipeline: headful in kiosk mode on its virtual display. What participants do
// must work as on the headless path (clicks land where they point, typing and IME reach the focused field,
// popups become the active tab) and the H.264 picture must show it; the JPEG fallback follows the same tab.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TRoomLaunchSpec } from '@rooms/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeH264 } from '../../testing/rooms/decode-check';
import { apply, input, key, press } from '../../testing/rooms/room-input';
import { liveDescendants, stillRunning, type TProcessInfo } from '../../testing/rooms/room-processes';
import { startTestPages, type TTestPages } from '../../testing/rooms/test-pages';
import { startEgressProxy } from '../egress/egress-proxy';
import { ChromiumRoomEngine } from '../engine/chromium-room-engine';
import type { ChromiumRoomSession } from '../engine/chromium-room-session';
import type { TMediaChunk } from '../room-session';

let pages: TTestPages;
let dataDir: string;
let engine: ChromiumRoomEngine;
let rooms = 0;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function running(overrides: Partial<TRoomLaunchSpec>): Promise<ChromiumRoomSession> {
  const spec: TRoomLaunchSpec = {
    roomId: `headful-${process.pid}-${++rooms}`,
    width: 800,
    height: 600,
    maxFrameRate: 20,
    videoBitrateKbps: 1000,
    startUrl: 'about:blank',
    keepData: false,
    autoCloseMs: null,
    ...overrides,
  };
  await engine.start(spec);
  const session = engine.session(spec.roomId)!;
  // One tab, the room's: a browser launching on a busy machine once had the omnibox popup adopted as two more.
  expect(session.tabs().map((tab) => tab.url)).toEqual([spec.startUrl]);
  return session;
}

/** H.264 pictures for a while, decoded to the mean brightness of each. */
async function brightness(session: ChromiumRoomSession, ms: number): Promise<number[]> {
  // What a joiner gets: the group since the last keyframe, then every new chunk (no gap: both in one tick).
  const lead = session.video.sinceKeyframe?.() ?? [];
  const chunks: TMediaChunk[] = [...lead];
  const stop = session.video.subscribe((chunk) => chunks.push(chunk));
  // The encoder starts with its first viewer: wait for its first keyframe when there was no lead.
  await expect.poll(() => chunks.some((chunk) => chunk.keyframe), { timeout: 25_000 }).toBe(true);
  await sleep(ms);
  stop();
  const first = chunks.findIndex((chunk) => chunk.keyframe);
  const decoded = await decodeH264(chunks.slice(first).map((chunk) => chunk.data));
  expect(decoded.errors).toBe('');
  // Only the pictures of this window; the lead was there to decode them.
  return decoded.luma.slice(Math.max(0, lead.length - first));
}

beforeAll(async () => {
  pages = await startTestPages();
  dataDir = await mkdtemp(join(tmpdir(), 'rooms-headful-test-'));
  engine = new ChromiumRoomEngine({
    chromiumPath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    roomsDataDir: dataDir,
    capacity: 2,
    media: 'h264',
    egress: { start: startEgressProxy, allow: [pages.hostPort] },
  });
});

afterAll(async () => {
  await engine?.close();
  await pages?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  expect(await liveDescendants(process.pid)).toEqual([]);
});

describe('a headful room browser', () => {
  it('shows the page and nothing else: the page is exactly the room’s size', async () => {
    const session = await running({ startUrl: pages.url('/size'), width: 800, height: 600 });
    try {
      expect(session.video.codec).toBe('h264');
      // The page settles at exactly the room's size (on a busy machine it may first load before its window is
      // mapped, smaller, and then be resized).
      expect(await pages.waitForEvent('size:800x600:', 15_000)).toMatch(/^size:800x600:/);
    } finally {
      await engine.stop(session.roomId);
    }
  });

  it('lands a click where it points, and the picture shows the pressed button', async () => {
    const session = await running({ startUrl: pages.url('/button') });
    try {
      await pages.waitForEvent('ready:button', 15_000);
      await sleep(500);
      const before = await brightness(session, 1000);
      await apply(session, press(0.5, 0.5));
      await pages.waitForEvent('clicked');
      const after = await brightness(session, 1000);
      // Green (#2a6) to red (#c33) over a quarter of the picture: the mean brightness drops.
      expect(after.at(-1)!).toBeLessThan(before.at(-1)! - 3);
    } finally {
      await engine.stop(session.roomId);
    }
  });

  it('types keys, pasted text and an IME composition into the focused input', async () => {
    const session = await running({ startUrl: pages.url('/form') });
    try {
      await pages.waitForEvent('ready:form', 15_000);
      await sleep(300);
      await apply(session, press(0.5, 0.05));
      await apply(session, [...key('h', 'KeyH'), ...key('i', 'KeyI')]);
      await apply(session, [input({ type: 'input/text', text: ' there ' })]);
      await apply(session, [
        input({ type: 'input/composition', text: 'ni', selectionStart: 2, selectionEnd: 2 }),
        input({ type: 'input/text', text: '你' }),
      ]);
      await apply(session, key('Enter', 'Enter'));
      expect(await pages.waitForEvent('submitted:')).toBe('submitted:hi there 你');
    } finally {
      await engine.stop(session.roomId);
    }
  });

  it('shows a popup as the active tab in the picture and in the fallback, and the opener again after', async () => {
    const session = await running({ startUrl: pages.url('/popup') });
    try {
      await pages.waitForEvent('ready:popup', 15_000);
      await sleep(1500);
      const still = await brightness(session, 800);
      expect(new Set(still.map(Math.round)).size).toBe(1);
      await apply(session, press(0.5, 0.5));
      // A new page, its CDP session and its first load: slow when the whole suite shares the machine.
      await expect
        .poll(() => session.tabs().find((tab) => tab.active)?.url, { timeout: 25_000 })
        .toBe(pages.url('/animated'));
      // The popup animates: the H.264 picture changes from frame to frame (once the new window paints), and so
      // does the fallback.
      const distinct = async (ms: number) => new Set((await brightness(session, ms)).map(Math.round)).size;
      await expect.poll(() => distinct(1000), { timeout: 25_000 }).toBeGreaterThan(2);
      const jpegs: TMediaChunk[] = [];
      const stop = session.fallbackVideo!.subscribe((chunk) => jpegs.push(chunk));
      await expect.poll(() => jpegs.length, { timeout: 15_000 }).toBeGreaterThan(3);
      stop();

      await session.closeTab(session.tabs().find((tab) => tab.active)!.id);
      await expect.poll(() => session.tabs().length, { timeout: 5000 }).toBe(1);
      // The opener is still again once it has repainted.
      await expect.poll(() => distinct(800)).toBe(1);
    } finally {
      await engine.stop(session.roomId);
    }
  });

  it("starts the room again when its display dies, and leaves none of the dead run's processes behind", async () => {
    const session = await running({ startUrl: pages.url('/tone') });
    await streaming(session);
    const processes = await liveDescendants(process.pid);
    const xvfb = processes.find((info) => info.name === 'Xvfb')!;
    process.kill(xvfb.pid, 'SIGKILL');
    await expect.poll(() => engine.session(session.roomId), { timeout: 15_000 }).not.toBe(session);
    await expect.poll(() => engine.state(session.roomId), { timeout: 15_000 }).toBe('running');
    await expect
      .poll(async () => stillRunning(processes.map((info) => info.pid)), { timeout: 10_000 })
      .toEqual([]);
    await engine.stop(session.roomId);
  });

  it("starts the room again when its sound server dies, and leaves none of the dead run's processes behind", async () => {
    const session = await running({ startUrl: pages.url('/tone') });
    await streaming(session);
    const processes = await liveDescendants(process.pid);
    const pulseaudio = processes.find((info) => info.name === 'pulseaudio')!;
    process.kill(pulseaudio.pid, 'SIGKILL');
    await expect.poll(() => engine.session(session.roomId), { timeout: 15_000 }).not.toBe(session);
    await expect.poll(() => engine.state(session.roomId), { timeout: 15_000 }).toBe('running');
    await expect
      .poll(async () => stillRunning(processes.map((info) => info.pid)), { timeout: 10_000 })
      .toEqual([]);
    // The new run has sound again.
    const sound: TMediaChunk[] = [];
    const stop = engine.session(session.roomId)!.audio!.subscribe((chunk) => sound.push(chunk));
    await expect.poll(() => sound.length, { timeout: 10_000 }).toBeGreaterThan(10);
    stop();
    await engine.stop(session.roomId);
  });

  it('keeps the room when an encoder dies: the encoder starts again and the sound goes on', async () => {
    const session = await running({ startUrl: pages.url('/tone') });
    session.video.subscribe(() => {});
    const sound: TMediaChunk[] = [];
    const stop = session.audio!.subscribe((chunk) => sound.push(chunk));
    // The sound encoder runs once its sound arrives.
    await expect.poll(() => sound.length, { timeout: 15_000 }).toBeGreaterThan(0);
    const opus = await findProcess(process.pid, (info) => info.name === 'ffmpeg', 'libopus');
    process.kill(opus.pid, 'SIGKILL');
    await sleep(300);
    const before = sound.length;
    // A restart waits 2 s (an encoder that ran under 5 s counts as failing), then ffmpeg starts in the sandbox.
    await expect.poll(() => sound.length - before, { timeout: 15_000 }).toBeGreaterThan(10);
    expect(engine.session(session.roomId)).toBe(session);
    expect(engine.state(session.roomId)).toBe('running');
    stop();
    await engine.stop(session.roomId);
  });

  it('answers at once what would otherwise ask in a bubble over the page, which nobody in the room can answer', async () => {
    const session = await running({ startUrl: pages.url('/ask') });
    try {
      await pages.waitForEvent('ready:ask', 15_000);
      await sleep(300);
      await apply(session, press(0.5, 0.5));
      // Refused by the room's policy; the local fonts come back empty-handed rather than refused, but at once.
      expect(await pages.waitForEvent('ask:screens:', 5000)).toBe('ask:screens:NotAllowedError');
      expect(await pages.waitForEvent('ask:fonts:', 5000)).toMatch(/^ask:fonts:/);
      // Chromium has no policy for Web MIDI: refused by the profile's own default content settings.
      expect(await pages.waitForEvent('ask:midi:', 5000)).toBe('ask:midi:NotAllowedError');
    } finally {
      await engine.stop(session.roomId);
    }
  });
});

/** Both encoders running for a viewer: its picture and its sound arrive, so every process of the run is up. */
async function streaming(session: ChromiumRoomSession): Promise<void> {
  let [pictures, sounds] = [0, 0];
  session.video.subscribe(() => {
    pictures += 1;
  });
  session.audio!.subscribe(() => {
    sounds += 1;
  });
  await expect.poll(() => pictures > 0 && sounds > 0, { timeout: 15_000 }).toBe(true);
}

/** A live descendant of `root` that matches and whose command line holds `argument`. */
async function findProcess(root: number, match: (info: TProcessInfo) => boolean, argument: string) {
  for (const info of await liveDescendants(root)) {
    if (!match(info)) continue;
    const commandLine = await readFile(`/proc/${info.pid}/cmdline`, 'utf8').catch(() => '');
    if (commandLine.split('\0').includes(argument)) return info;
  }
  throw new Error(`no process with ${argument}`);
}
