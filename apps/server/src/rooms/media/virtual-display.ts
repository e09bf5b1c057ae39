// A room's X display: an Xvfb screen (just) holding the room's resolution that the room's Chromium draws on and ffmpeg
// captures. Xvfb picks a free display number itself (-displayfd) and tells it on a pipe, so rooms starting at the
// same moment never race for one: the X server's lock files decide.
import type { RoomProcessLauncher } from '../sandbox/room-sandbox';
import { RoomProcess } from './room-process';

const START_TIMEOUT_MS = 10_000;

export class VirtualDisplay {
  private constructor(
    /** e.g. ":3", for DISPLAY and x11grab. */
    readonly display: string,
    readonly process: RoomProcess,
  ) {}

  static async start(options: {
    width: number;
    height: number;
    launcher: RoomProcessLauncher;
  }): Promise<VirtualDisplay> {
    const xvfb = RoomProcess.spawn(
      options.launcher,
      'Xvfb',
      [
        '-displayfd',
        '3',
        '-screen',
        '0',
        // One pixel more each way: with no window manager, Chromium makes a window the size of the whole screen
        // one pixel smaller (799×599 on 800×600), so the page would not be the room's size. On a slightly larger
        // screen the window is exactly the room's size at 0,0, and ffmpeg grabs just that rectangle.
        `${options.width + 1}x${options.height + 1}x24`,
        // Local clients only, and no reset when the last one leaves (the browser restarts on the same screen).
        '-nolisten',
        'tcp',
        '-noreset',
        // No OpenGL on the display: Chromium draws in software here anyway (--disable-gpu), and GLX would load
        // Mesa's renderer into Xvfb (bench/room-memory.ts).
        '-extension',
        'GLX',
      ],
      { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    xvfb.child.stderr?.on('data', (data: Buffer) => {
      stderr = (stderr + data.toString()).slice(-2000);
    });
    try {
      const number = await readDisplayNumber(xvfb);
      return new VirtualDisplay(`:${number}`, xvfb);
    } catch (error) {
      await xvfb.stop();
      throw new Error(`Xvfb did not start: ${(error as Error).message} ${stderr.trim()}`.trim());
    }
  }

  stop(): Promise<void> {
    return this.process.stop();
  }
}

/** Xvfb writes the display number and a newline on descriptor 3 once it accepts clients. */
function readDisplayNumber(xvfb: RoomProcess): Promise<number> {
  const pipe = xvfb.child.stdio[3] as NodeJS.ReadableStream | undefined;
  if (!pipe) return Promise.reject(new Error('no display pipe'));
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => done(new Error('timed out')), START_TIMEOUT_MS);
    const onData = (data: Buffer) => {
      text += data.toString();
      const match = /^(\d+)\n/.exec(text);
      if (match) done(undefined, Number(match[1]));
    };
    const onExit = () => done(new Error('exited'));
    function done(error: Error | undefined, number?: number) {
      clearTimeout(timer);
      pipe!.off('data', onData);
      xvfb.child.off('exit', onExit);
      if (error) reject(error);
      else resolve(number!);
    }
    pipe.on('data', onData);
    xvfb.child.once('exit', onExit);
  });
}
