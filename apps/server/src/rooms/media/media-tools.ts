// Whether this server can run the H.264 + Opus pipeline: the programs it starts and the ffmpeg features it uses.
// Asked once per process; a server without them runs every room on the CDP screencast.
import { execFile } from 'node:child_process';
import { PDEATHSIG_WRAPPER } from './room-process';

export type TMediaProbe = { ok: true } | { ok: false; missing: string[] };

function run(command: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(command, args, { timeout: 10_000 }, (error, stdout, stderr) => {
      // Some of these print their version on stderr, some exit non-zero after printing usage.
      const nodeError = error as NodeJS.ErrnoException | null;
      resolve(nodeError?.code === 'ENOENT' ? undefined : `${stdout}${stderr}`);
    });
  });
}

async function probe(): Promise<TMediaProbe> {
  const [xvfb, pulse, setpriv, encoders, devices] = await Promise.all([
    run('Xvfb', ['-version']),
    run('pulseaudio', ['--version']),
    run(PDEATHSIG_WRAPPER[0]!, ['--version']),
    run('ffmpeg', ['-hide_banner', '-encoders']),
    run('ffmpeg', ['-hide_banner', '-devices']),
  ]);
  const missing: string[] = [];
  if (xvfb === undefined) missing.push('Xvfb');
  if (pulse === undefined) missing.push('pulseaudio');
  if (setpriv === undefined) missing.push('setpriv');
  if (encoders === undefined || devices === undefined) missing.push('ffmpeg');
  else {
    for (const encoder of ['libx264', 'libopus']) {
      if (!new RegExp(`\\s${encoder}\\s`).test(encoders)) missing.push(`ffmpeg ${encoder}`);
    }
    for (const device of ['x11grab', 'pulse']) {
      if (!new RegExp(`\\sD.?\\s+${device}\\s`).test(devices)) missing.push(`ffmpeg ${device}`);
    }
  }
  return missing.length === 0 ? { ok: true } : { ok: false, missing };
}

let probed: Promise<TMediaProbe> | undefined;

export function probeMediaTools(): Promise<TMediaProbe> {
  probed ??= probe();
  return probed;
}
