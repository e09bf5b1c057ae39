// Recorded media for journeys that need an H.264 + Opus stream without the server's encoder: ffmpeg makes a
// few seconds of a moving test picture (baseline, no B-frames, an access unit delimiter per picture, SPS/PPS on
// every keyframe) and a tone (Opus, 20 ms packets) into a temporary folder; they are split into the units the
// server sends, one access unit or one packet per media frame.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { hasIdr, NAL_TYPE, nalType } from '../src/lib/room/h264';

const run = promisify(execFile);

export interface TMediaFixture {
  width: number;
  height: number;
  fps: number;
  video: { keyframe: boolean; data: Uint8Array }[];
  /** Opus packets of 20 ms each. */
  audio: Uint8Array[];
  channels: 1 | 2;
}

export async function makeMediaFixture(
  options: { width?: number; height?: number; fps?: number; seconds?: number; channels?: 1 | 2 } = {},
): Promise<TMediaFixture> {
  const { width = 640, height = 360, fps = 30, seconds = 4, channels = 2 } = options;
  const dir = await mkdtemp(join(tmpdir(), 'rooms-media-'));
  try {
    const video = join(dir, 'picture.h264');
    const audio = join(dir, 'sound.ogg');
    const quiet = ['-hide_banner', '-loglevel', 'error', '-y'];
    await Promise.all([
      run('ffmpeg', [
        ...quiet,
        ...['-f', 'lavfi', '-i', `testsrc2=size=${width}x${height}:rate=${fps}`, '-t', String(seconds)],
        ...['-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-profile:v', 'baseline', '-bf', '0'],
        ...['-g', String(fps), '-tune', 'zerolatency', '-x264-params', 'aud=1:repeat-headers=1'],
        ...['-f', 'h264', video],
      ]),
      run('ffmpeg', [
        ...quiet,
        ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000', '-t', String(seconds)],
        ...['-ac', String(channels), '-c:a', 'libopus', '-b:a', '64k', '-frame_duration', '20'],
        ...['-application', 'lowdelay', '-f', 'ogg', audio],
      ]),
    ]);
    const units = accessUnits(new Uint8Array(await readFile(video)));
    const packets = oggPackets(new Uint8Array(await readFile(audio)));
    return {
      width,
      height,
      fps,
      video: units.map((data) => ({ keyframe: hasIdr(data), data })),
      // The first two packets are the OpusHead and OpusTags headers, not sound.
      audio: packets.slice(2),
      channels,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Splits an Annex B stream at its access unit delimiters; each piece keeps its start codes. */
function accessUnits(stream: Uint8Array): Uint8Array[] {
  const starts: number[] = [];
  for (let i = 0; i + 4 < stream.length; i += 1) {
    if (stream[i] !== 0 || stream[i + 1] !== 0) continue;
    const long = stream[i + 2] === 0 && stream[i + 3] === 1;
    const short = stream[i + 2] === 1;
    const header = stream[long ? i + 4 : i + 3];
    if ((long || short) && header !== undefined && nalType(Uint8Array.of(header)) === NAL_TYPE.aud) {
      starts.push(i);
      i += 3;
    }
  }
  return starts.map((start, index) => stream.slice(start, starts[index + 1] ?? stream.length));
}

/** The packets of an Ogg stream (RFC 3533): segments of 255 bytes continue a packet, a shorter one ends it. */
function oggPackets(file: Uint8Array): Uint8Array[] {
  const packets: Uint8Array[] = [];
  let current: Uint8Array[] = [];
  let at = 0;
  while (at + 27 <= file.length) {
    if (file[at] !== 0x4f || file[at + 1] !== 0x67 || file[at + 2] !== 0x67 || file[at + 3] !== 0x53) {
      throw new Error(`no Ogg page at byte ${at}`);
    }
    const segments = file[at + 26] ?? 0;
    const table = file.subarray(at + 27, at + 27 + segments);
    let body = at + 27 + segments;
    for (const size of table) {
      current.push(file.subarray(body, body + size));
      body += size;
      if (size < 255) {
        packets.push(concat(current));
        current = [];
      }
    }
    at = body;
  }
  return packets;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
