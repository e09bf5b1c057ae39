// The participant's media player in real Chromium, fed a recorded H.264 + Opus stream: the room, the ticket and
// the socket are real, but the test stands between page and server on the room socket, drops the server's
// picture and sends a recording instead (timestamps on the server's clock, which is this process's), as the
// server's encoder would. It checks what the page announces in member/join, that WebCodecs decodes the moving
// picture, that the indicator names the H.264 path, that the sound reaches the speakers (and obeys mute), that
// a browser enforcing the autoplay rule gets sound after one click, and it prints the A/V offset measured.
import { encodeMediaFrame } from '@rooms/api/room-protocol';
import type { BrowserContext, WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeMediaFixture, type TMediaFixture } from './media-fixture';
import {
  canvasSample,
  createRunningRoom,
  enterRoom,
  expectMovingPicture,
  expectSound,
  passEntry,
  servePages,
  soundLevel,
  stopAndDeleteRoom,
  type TPages,
} from './room-support';
import { login, register, screenshots, startJourneys, type TJourneyKit, uniqueUser } from './support';

// The whole page changes colour every frame, so the screencast fallback's picture visibly moves everywhere.
const PAGE = `<!doctype html><title>fixture room</title><body style="margin:0;background:#224;color:#fff;font:64px sans-serif">
<div id="n"></div><script>let n = 0; (function tick() { document.getElementById('n').textContent = n++; document.body.style.background = 'hsl(' + (n * 7) % 360 + ',60%,30%)'; requestAnimationFrame(tick); })();</script>`;
const OPUS_PACKET_MS = 20;

let kit: TJourneyKit;
let pages: TPages;
let fixture: TMediaFixture;

beforeAll(async () => {
  [pages, fixture] = await Promise.all([servePages(PAGE), makeMediaFixture()]);
  const port = new URL(pages.origin).port;
  // The server's own stream is replaced anyway: the lazy screencast costs least.
  kit = await startJourneys({ env: { ROOM_EGRESS_ALLOW: `127.0.0.1:${port}`, ROOM_MEDIA: 'screencast' } });
});

afterAll(async () => {
  await kit?.close();
  pages?.server.close();
});

/** Sends the recording on a loop in real time until the socket closes. */
function playRecording(page: WebSocketRoute, media: TMediaFixture): () => void {
  const start = performance.now() + 20;
  const frameMs = 1000 / media.fps;
  let pictures = 0;
  let packets = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    try {
      while (start + pictures * frameMs <= now) {
        const unit = media.video[pictures % media.video.length];
        if (unit) {
          const bytes = encodeMediaFrame({
            codec: 'h264',
            keyframe: unit.keyframe,
            width: media.width,
            height: media.height,
            timestamp: start + pictures * frameMs,
            data: unit.data,
          });
          page.send(Buffer.from(bytes));
        }
        pictures += 1;
      }
      while (start + packets * OPUS_PACKET_MS <= now) {
        const packet = media.audio[packets % media.audio.length];
        if (packet) {
          const bytes = encodeMediaFrame({
            codec: 'opus',
            keyframe: true,
            width: 0,
            height: 0,
            timestamp: start + packets * OPUS_PACKET_MS,
            data: packet,
          });
          page.send(Buffer.from(bytes));
        }
        packets += 1;
      }
    } catch {
      clearInterval(timer);
    }
  }, 5);
  return () => clearInterval(timer);
}

/**
 * Stands between the pages of `context` and the server on the room socket: everything passes, except that a
 * page that announced h264 is told so in stream/config and sent the recording instead of the server's pictures.
 */
async function streamRecording(context: BrowserContext, joins: { decoders?: string[] }[]): Promise<void> {
  await context.routeWebSocket(/\/ws\/room\//, (socket) => {
    const server = socket.connectToServer();
    let stop = () => {};
    let streamed = false;
    let decoders: string[] = [];
    socket.onMessage((message) => {
      if (typeof message === 'string') {
        const parsed = JSON.parse(message) as { type: string; decoders?: string[] };
        if (parsed.type === 'member/join') {
          joins.push(parsed);
          decoders = parsed.decoders ?? [];
        }
      }
      server.send(message);
    });
    server.onMessage((message) => {
      if (typeof message !== 'string') {
        // The server's pictures go only to a page that asked for the screencast alone.
        if (!decoders.includes('h264')) socket.send(message);
        return;
      }
      const parsed = JSON.parse(message) as { type: string };
      if (parsed.type === 'stream/config' && decoders.includes('h264')) {
        socket.send(
          JSON.stringify({ ...parsed, codec: 'h264', audio: 'opus', fps: fixture.fps, bitrateKbps: 1500 }),
        );
        if (!streamed) stop = playRecording(socket, fixture);
        streamed = true;
        return;
      }
      socket.send(message);
    });
    socket.onClose(() => stop());
    server.onClose(() => stop());
  });
}

describe('room media from a recording', () => {
  it('decodes H.264 with WebCodecs, plays the Opus sound, and keeps them together', async () => {
    expect(fixture.video[0]?.keyframe).toBe(true);
    const joins: { decoders?: string[] }[] = [];
    const context = await kit.newContext();
    await streamRecording(context, joins);
    const page = await context.newPage();
    const owner = uniqueUser('media');
    await register(page, kit.server, owner);
    const name = await createRunningRoom(page, `${pages.origin}/`);
    await enterRoom(page, name, 'Viewer');

    // This Chromium has WebCodecs H.264 and Opus: the page asks for the stream, the screencast as a fallback.
    expect(joins.at(-1)?.decoders).toEqual(['h264', 'opus', 'jpeg']);

    await expectMovingPicture(page);
    const sample = await canvasSample(page);
    expect([sample?.width, sample?.height]).toEqual([fixture.width, fixture.height]);
    const indicator = page.getByTestId('quality-indicator');
    await expect.poll(() => indicator.getAttribute('data-path'), { timeout: 15_000 }).toBe('h264');
    expect(await page.getByTestId('quality-path').textContent()).toBe('H.264');
    // The frame rate is counted over a second of pictures.
    await expect.poll(() => indicator.getAttribute('data-fps'), { timeout: 15_000 }).not.toBe('0');

    await expectSound(page);
    await screenshots(page, 'room-media-h264');

    // Picture and sound: the page reports the offset it measured between what it shows and what it plays.
    // The figure as it stands (its settled value over many presses is bench/e2e-latency.ts's lip sync).
    await expect.poll(() => indicator.getAttribute('data-av-offset'), { timeout: 15_000 }).not.toBe('');
    const offset = Number(await indicator.getAttribute('data-av-offset'));
    const raw = await indicator.getAttribute('data-av-raw-offset');
    const delay = await indicator.getAttribute('data-sound-delay');
    console.log(
      `[a/v] shown picture − heard sound: ${offset} ms (newest decoded picture − heard sound before pacing: ${raw} ms; sound delayed by ${delay} ms)`,
    );
    expect(Number.isFinite(offset)).toBe(true);

    // Mute silences the speakers, unmute brings the sound back; the picture never stops.
    await page.getByTestId('room-mute').click();
    // As long as expectSound allows: on a loaded machine the meter can trail the click by seconds.
    await expect.poll(() => soundLevel(page), { timeout: 15_000 }).toBeLessThan(0.001);
    await page.getByTestId('room-mute').click();
    await expect.poll(() => soundLevel(page), { timeout: 15_000 }).toBeGreaterThan(0.02);
    await expectMovingPicture(page);

    // A browser enforcing the autoplay rule starts a page's AudioContext suspended until a click on the page.
    // Playwright's own actions count as user gestures, so the rule is played here by the page's AudioContext
    // suspending itself at birth: the sound then waits for the one click on the unmute button, and plays.
    const strict = await kit.browser.newContext({
      baseURL: kit.server.url,
      storageState: await context.storageState(),
    });
    await strict.addInitScript(() => {
      const Native = window.AudioContext;
      window.AudioContext = class extends Native {
        constructor(options?: AudioContextOptions) {
          super(options);
          void this.suspend();
        }
      };
    });
    await streamRecording(strict, joins);
    const late = await strict.newPage();
    await late.goto(new URL(page.url()).pathname);
    await passEntry(late, 'Late');
    await late.getByTestId('room-unmute').waitFor({ timeout: 30_000 });
    expect(await late.getByTestId('room-sound').count()).toBe(0);
    await expectMovingPicture(late);
    await screenshots(late, 'room-media-unmute');
    await late.getByTestId('room-unmute').click();
    await late.locator('[data-testid="room-sound"][data-status="playing"]').waitFor({ timeout: 15_000 });
    await expect.poll(() => soundLevel(late), { timeout: 15_000 }).toBeGreaterThan(0.02);
    await strict.close();

    // A browser whose H.264 decoder passes the probe but never decodes a picture gives up on it after a few
    // keyframes and joins again without it: the room sends it the screencast.
    const broken = await kit.newContext();
    await broken.addInitScript(() => {
      const configure = VideoDecoder.prototype.configure;
      VideoDecoder.prototype.configure = function (config: VideoDecoderConfig) {
        configure.call(this, { ...config, codec: 'avc1.FFFFFF' });
      };
    });
    await streamRecording(broken, joins);
    const fallback = await broken.newPage();
    await fallback.goto('/auth/login');
    await login(fallback, owner.email, owner.password);
    await fallback.waitForURL('**/dashboard');
    await enterRoom(fallback, name, 'Broken decoder');
    const fallbackIndicator = fallback.getByTestId('quality-indicator');
    await expect.poll(() => fallbackIndicator.getAttribute('data-path'), { timeout: 30_000 }).toBe('jpeg');
    expect(joins.at(-1)?.decoders).toEqual(['opus', 'jpeg']);
    await fallback.locator('[data-testid="room-page"][data-status="joined"]').waitFor({ timeout: 30_000 });
    await expectMovingPicture(fallback);
    expect(await fallback.getByTestId('quality-path').textContent()).toBe('Screencast');
    await broken.close();

    await stopAndDeleteRoom(page, name);
    await context.close();
  });
});
