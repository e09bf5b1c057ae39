// Launches and ends one room's Chromium: a persistent context on the room's profile directory, every request
// through the egress proxy, downloads refused until the session lets them into the run's own directory
// (./downloads.ts). Headless for the CDP screencast; on the media pipeline, headful in
// kiosk mode on the room's virtual display, playing into the room's sound server. It reports a browser that dies
// on its own so the engine can mark the room crashed.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import { findBrowserPid, isAlive } from '../process-tree';
import type { RoomSandbox } from '../sandbox/room-sandbox';

export interface TRoomBrowserOptions {
  chromiumPath: string;
  profileDir: string;
  width: number;
  height: number;
  /** The room's sandbox: how Chromium starts, its environment and its way to the egress proxy. */
  sandbox: RoomSandbox;
  launchTimeoutMs?: number;
  /**
   * Headful on a virtual display: the variables naming the display (DISPLAY) and the sound server
   * (PULSE_SERVER). Without them the browser runs headless.
   */
  displayEnv?: Record<string, string>;
  /** Flags after the room's own (bench/room-memory.ts weighs candidates this way). */
  extraArgs?: string[];
}

/**
 * Flags every Chromium this project starts needs (rooms, and the tests' own browsers): no GPU here, and no
 * background traffic to Google, which a closed network refuses by the dozen and an egress guard must not see.
 */
export const QUIET_CHROMIUM_ARGS = [
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const ARGS = [
  ...QUIET_CHROMIUM_ARGS,
  '--disable-dev-shm-usage',
  // WebRTC would otherwise send UDP around the egress proxy (the sandbox's network namespace has no route for it
  // either; this is the second layer).
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
];

/** The window is the whole screen: our UI provides the browser controls, the picture is only the page. */
const HEADFUL_ARGS = (width: number, height: number) => [
  '--kiosk',
  '--window-position=0,0',
  `--window-size=${width},${height}`,
  // Pages that start sound on load (a video, a game) play without a click, as in a room everyone expects sound.
  '--autoplay-policy=no-user-gesture-required',
  // Hides the "unsupported command-line flag" bar --no-sandbox (an unconfined server run as root) would put over
  // the page.
  '--test-type',
];

// A browser that does not close within this time is killed: stopping a room must not hang the API.
const CLOSE_TIMEOUT_MS = 10_000;

// Chromium refuses a profile whose Singleton* links point at a process that is gone (after a hard kill of the
// server), so they are removed before launch; a live browser on the same profile cannot exist (one per room).
async function removeStaleLocks(profileDir: string): Promise<void> {
  await Promise.all(
    ['SingletonLock', 'SingletonSocket', 'SingletonCookie'].map((name) =>
      rm(join(profileDir, name), { force: true }),
    ),
  );
}

export class RoomBrowser {
  private closing = false;
  private readonly exitListeners = new Set<() => void>();

  private constructor(
    readonly context: BrowserContext,
    /** The browser process, when /proc shows it (Linux). */
    readonly pid: number | undefined,
  ) {
    context.on('close', () => {
      if (this.closing) return;
      for (const listener of this.exitListeners) listener();
    });
  }

  static async launch(options: TRoomBrowserOptions): Promise<RoomBrowser> {
    await removeStaleLocks(options.profileDir);
    const viewport = { width: options.width, height: options.height };
    const headful = options.displayEnv !== undefined;
    // Headful, the page is the kiosk window, which is the display's size; emulating a viewport on top of it
    // would only add a second source of truth (and Playwright refuses a scale factor without one).
    const size = headful ? { viewport: null } : { viewport, screen: viewport, deviceScaleFactor: 1 };
    // The whole environment Chromium gets: the sandbox's allow-list, never the server's own (its secrets).
    const { executablePath, env } = options.sandbox.chromium(options.chromiumPath, options.displayEnv);
    const context = await chromium.launchPersistentContext(options.profileDir, {
      executablePath,
      env,
      // Playwright adds --mute-audio in headless mode only: headful, the room's sound reaches the sink.
      headless: !headful,
      // On unless the server runs rooms as root without a sandbox, where Chromium cannot start with it
      // (Playwright adds --no-sandbox unless this is true).
      chromiumSandbox: options.sandbox.chromiumSandbox,
      ...size,
      acceptDownloads: false,
      // '<-loopback>' removes Chromium's built-in proxy bypass for localhost, so loopback goes through the guard.
      proxy: { server: options.sandbox.proxyServer, bypass: '<-loopback>' },
      args: [
        ...ARGS,
        ...(headful ? HEADFUL_ARGS(options.width, options.height) : []),
        ...(options.extraArgs ?? []),
      ],
      // Playwright disables the popup blocker for tests; a shared room keeps it, so only user-initiated popups
      // become tabs.
      ignoreDefaultArgs: ['--disable-popup-blocking'],
      timeout: options.launchTimeoutMs ?? 30_000,
      // The server closes rooms gracefully on SIGINT/SIGTERM (keep-data profiles flush cookies on close);
      // Playwright's own handlers would kill the browsers first.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    return new RoomBrowser(context, await findBrowserPid(options.profileDir));
  }

  /** Called once if the browser goes away without close() (crash, killed process). */
  onUnexpectedExit(listener: () => void): void {
    this.exitListeners.add(listener);
  }

  async close(): Promise<void> {
    this.closing = true;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, CLOSE_TIMEOUT_MS);
    });
    await Promise.race([this.context.close().catch(() => {}), timedOut]);
    clearTimeout(timer);
    await this.ensureExited();
  }

  /** Makes sure no browser process outlives the room, whatever state Chromium was in. */
  async ensureExited(): Promise<void> {
    const pid = this.pid;
    if (pid === undefined) return;
    for (let waited = 0; waited < 3000 && isAlive(pid); waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  }
}
