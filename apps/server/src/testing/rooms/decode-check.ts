// Proof that what the relay sends decodes, for the media tests and the stream benchmark: H.264 access units go
// through ffmpeg's decoder, Opus packets are wrapped in an Ogg stream (the framing ffmpeg reads) and decoded to
// PCM whose loudness is measured.
import { spawn } from 'node:child_process';
import { opusPacketSamples } from '../../rooms/media/ogg-opus-reader';

function run(
  args: string[],
  input: Uint8Array,
): Promise<{ stdout: Buffer; stderr: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn('ffmpeg', args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => out.push(data));
    child.stderr.on('data', (data: Buffer) => {
      stderr += data.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ stdout: Buffer.concat(out), stderr, code }));
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}

/** Decodes Annex B access units (from a keyframe on); returns the pictures decoded and ffmpeg's complaints. */
export async function decodeH264(
  units: readonly Uint8Array[],
  size = { width: 32, height: 18 },
): Promise<{ frames: number; errors: string; luma: number[] }> {
  const { stdout, stderr } = await run(
    [
      '-hide_banner',
      '-v',
      'error',
      '-f',
      'h264',
      '-i',
      'pipe:0',
      '-vf',
      `scale=${size.width}:${size.height}`,
      '-pix_fmt',
      'gray',
      // One picture out per access unit in, whatever timestamps the raw stream implies.
      '-fps_mode',
      'passthrough',
      '-f',
      'rawvideo',
      'pipe:1',
    ],
    Buffer.concat(units),
  );
  const pixels = size.width * size.height;
  const luma: number[] = [];
  for (let offset = 0; offset + pixels <= stdout.length; offset += pixels) {
    let sum = 0;
    for (let i = offset; i < offset + pixels; i++) sum += stdout[i]!;
    luma.push(sum / pixels);
  }
  return { frames: luma.length, errors: stderr.trim(), luma };
}

/**
 * Decodes Opus packets (48 kHz stereo) and returns the RMS of each packet's sound, 0..1 full scale: one level per
 * packet, whatever its length, so a level's index is its packet's (and its timestamp's).
 */
export async function opusLoudness(packets: readonly Uint8Array[]): Promise<number[]> {
  const { stdout } = await run(
    ['-hide_banner', '-v', 'error', '-f', 'ogg', '-i', 'pipe:0', '-ac', '1', '-f', 's16le', 'pipe:1'],
    oggOpus(packets),
  );
  const levels: number[] = [];
  let offset = 0;
  for (const packet of packets) {
    const samples = opusPacketSamples(packet);
    if (offset + samples * 2 > stdout.length) break;
    let sum = 0;
    for (let i = 0; i < samples; i++) {
      const sample = stdout.readInt16LE(offset + i * 2) / 32768;
      sum += sample * sample;
    }
    levels.push(Math.sqrt(sum / samples));
    offset += samples * 2;
  }
  return levels;
}

/** An Ogg Opus stream around raw packets (RFC 7845), one packet per page. */
export function oggOpus(packets: readonly Uint8Array[]): Buffer {
  const head = Buffer.alloc(19);
  head.write('OpusHead', 0, 'latin1');
  head[8] = 1; // version
  head[9] = 2; // channels
  head.writeUInt16LE(0, 10); // pre-skip
  head.writeUInt32LE(48_000, 12);
  const vendor = 'rooms-test';
  const tags = Buffer.alloc(8 + 4 + vendor.length + 4);
  tags.write('OpusTags', 0, 'latin1');
  tags.writeUInt32LE(vendor.length, 8);
  tags.write(vendor, 12, 'latin1');
  const pages = [page([head], 0, 0, 0x02), page([tags], 0, 1, 0)];
  let granule = 0;
  packets.forEach((packet, index) => {
    const last = index === packets.length - 1;
    granule += opusPacketSamples(packet);
    pages.push(page([packet], granule, index + 2, last ? 0x04 : 0));
  });
  return Buffer.concat(pages);
}

/** One Ogg page holding `packets` whole, ending at `granule` (tests of pages with several packets). */
export function oggPage(packets: readonly Uint8Array[], granule: number, sequence = 1000): Buffer {
  return page(packets, granule, sequence, 0);
}

function page(packets: readonly Uint8Array[], granule: number, sequence: number, flags: number): Buffer {
  const lacing: number[] = [];
  for (const packet of packets) {
    let left = packet.length;
    while (left >= 255) {
      lacing.push(255);
      left -= 255;
    }
    lacing.push(left);
  }
  const body = Buffer.concat(packets);
  const header = Buffer.alloc(27 + lacing.length);
  header.write('OggS', 0, 'latin1');
  header[5] = flags;
  header.writeBigInt64LE(BigInt(granule), 6);
  header.writeUInt32LE(0x524f4f4d, 14); // serial
  header.writeUInt32LE(sequence, 18);
  header[26] = lacing.length;
  Buffer.from(lacing).copy(header, 27);
  const bytes = Buffer.concat([header, body]);
  bytes.writeUInt32LE(oggCrc(bytes), 22);
  return bytes;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, index) => {
  let value = index << 24;
  for (let bit = 0; bit < 8; bit++) value = value & 0x80000000 ? (value << 1) ^ 0x04c11db7 : value << 1;
  return value >>> 0;
});

function oggCrc(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ byte) & 0xff]!) >>> 0;
  return crc;
}
