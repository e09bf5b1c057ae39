// A room's sound: its own PulseAudio daemon with one null sink. The room's Chromium plays into the sink, ffmpeg
// records the sink's monitor. One daemon per room, not one shared daemon with a sink per room, so rooms cannot
// hear each other and a room's sound stops with the room.
//
// Running without a login session needs care: pulseaudio refuses the system-wide mode without a `pulse` user and, in per-user
// mode, would look for the user's runtime directory, cookie and D-Bus. So: per-user mode (--system=false) with
// HOME, XDG_RUNTIME_DIR and PULSE_RUNTIME_PATH all in the room's own directory, no default script (-n) so no
// D-Bus, device detection or suspend-on-idle modules load, never exiting on idle (--exit-idle-time=-1) or on a
// client's request (--disallow-exit), anonymous access on its socket (only the room's sandbox can reach the
// directory), and no daemonising, so the process stays the one we started and stop() ends it.
import { access, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { RoomProcessLauncher } from '../sandbox/room-sandbox';
import { RoomProcess } from './room-process';

const START_TIMEOUT_MS = 10_000;
export const SINK_NAME = 'room';

export class SoundServer {
  private constructor(
    /** For PULSE_SERVER and ffmpeg's -server, e.g. unix:/…/pulse/native. */
    readonly address: string,
    readonly process: RoomProcess,
  ) {}

  /** The source ffmpeg records: everything played into the room's sink. */
  get monitor(): string {
    return `${SINK_NAME}.monitor`;
  }

  static async start(options: { runtimeDir: string; launcher: RoomProcessLauncher }): Promise<SoundServer> {
    const dir = options.runtimeDir;
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const socket = join(dir, 'native');
    const pulse = RoomProcess.spawn(
      options.launcher,
      'pulseaudio',
      [
        '--daemonize=no',
        '--system=false',
        '-n',
        '--exit-idle-time=-1',
        '--disallow-exit',
        '--use-pid-file=false',
        '--log-target=stderr',
        '--log-level=error',
        '-L',
        `module-null-sink sink_name=${SINK_NAME} rate=48000 channels=2`,
        '-L',
        `module-native-protocol-unix socket=${socket} auth-anonymous=1`,
      ],
      {
        env: {
          HOME: dir,
          XDG_RUNTIME_DIR: dir,
          PULSE_RUNTIME_PATH: dir,
          PULSE_STATE_PATH: dir,
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    pulse.child.stderr?.on('data', (data: Buffer) => {
      stderr = (stderr + data.toString()).slice(-2000);
    });
    const deadline = Date.now() + START_TIMEOUT_MS;
    // The socket exists once the protocol module is loaded, which is after the sink.
    while (!(await exists(socket))) {
      if (!pulse.running || Date.now() > deadline) {
        await pulse.stop();
        throw new Error(`pulseaudio did not start: ${stderr.trim() || 'timed out'}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return new SoundServer(`unix:${socket}`, pulse);
  }

  stop(): Promise<void> {
    return this.process.stop();
  }
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
