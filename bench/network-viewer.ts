// One viewer of bench/network.ts, run as its own process inside the network namespace of its shaped link (or on
// loopback as the reference). It speaks the room protocol as the web client does: it relates its clock to the
// server's (system/ping → system/pong) before joining, joins with the decoders a WebCodecs browser declares,
// and acknowledges what it received as apps/web's stream-acks.ts does (stream/ack: the socket's cumulative
// binary bytes, padding included, and when the last of them arrived; at most one every 100 ms while media
// arrives, and one more for the tail of a burst). It records every frame and every stream/layer and stream/config message, decides
// for each H.264 frame whether a decoder could show it, and prints everything as one JSON line when told to stop
// (a line on stdin, or stdin closing when the bench goes away).
// Run by bench/network.ts: <node> --import tsx bench/network-viewer.ts url=ws://… origin=http://… nickname=…
//      [acks=off: no stream/ack, as clients before layers, which the server sends everything at once]
import {
  decodeMediaFrame,
  isPaddingFrame,
  type TMediaCodecName,
  type TServerMessage,
  type TStreamLayerChoice,
} from '@rooms/api/room-protocol';
import WebSocket from 'ws';
import { opusPacketSamples } from '../apps/server/src/rooms/media/ogg-opus-reader';

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const index = arg.indexOf('=');
    return [arg.slice(0, index), arg.slice(index + 1)];
  }),
);
const SERVER_URL = args.url!;
const ORIGIN = args.origin!;
const NICKNAME = args.nickname!;
/** What a browser with WebCodecs declares in member/join. */
const DECODERS: TMediaCodecName[] = ['h264', 'opus', 'jpeg'];
const LAYER: TStreamLayerChoice = 'auto';
const ACKS = args.acks !== 'off';
const ACK_EVERY_MS = 100;
const PING_EVERY_MS = 1000;
/** Pings before joining, while no media shares the link: their round trips are the link's own. */
const SYNC_PINGS = 8;

/**
 * Every binary message as it arrived: [arrival (this process's clock, ms), codec ('padding': filler the server
 * sends to probe the link), keyframe, bytes, width, height, server timestamp, decodable, sound duration (ms)].
 */
export type TFrameRecord = [
  number,
  TMediaCodecName | 'padding',
  0 | 1,
  number,
  number,
  number,
  number,
  0 | 1,
  number,
];

export interface TViewerReport {
  nickname: string;
  /** Server clock − this process's clock, from the ping with the shortest round trip. */
  clockOffset: number;
  /** That ping's round trip, ms: the uncertainty of the offset is half of it. */
  syncRtt: number;
  frames: TFrameRecord[];
  /** stream/layer messages: when they arrived (this process's clock) and what they said. */
  layers: { at: number; layer: string; choice: string; reason: string }[];
  configs: {
    at: number;
    codec: string;
    audio: string | null;
    layers: unknown[];
    bitrateKbps: number | null;
  }[];
  errors: { at: number; code: string; about?: string }[];
  acksSent: number;
  /** This process's CPU time from its join to its stop, ms. */
  cpuMs: number;
  /** H.264 frames whose slice header could not be read; their decodability was judged by the keyframe flag. */
  unparsedFrames: number;
  closed: { at: number; code: number; reason: string } | null;
}

// ---------------------------------------------------------------------------------------------------------------
// Whether a decoder could show an H.264 frame: from its keyframe (IDR) on, every frame must follow the one it
// references. x264's baseline stream (no B-frames) numbers reference frames in the slice header (frame_num, +1
// per reference frame, modulo 2^(log2_max_frame_num)), so a frame the server skipped shows as a jump; a delta
// frame after a jump is undecodable until the next keyframe, whatever else arrives.

class BitReader {
  private bit = 0;

  constructor(private readonly bytes: Uint8Array) {}

  u(count: number): number {
    let value = 0;
    for (let i = 0; i < count; i++) {
      const byte = this.bytes[this.bit >> 3];
      if (byte === undefined) throw new Error('out of bits');
      value = value * 2 + ((byte >> (7 - (this.bit & 7))) & 1);
      this.bit += 1;
    }
    return value;
  }

  ue(): number {
    let zeros = 0;
    while (this.u(1) === 0) {
      zeros += 1;
      if (zeros > 31) throw new Error('bad Exp-Golomb code');
    }
    return 2 ** zeros - 1 + this.u(zeros);
  }

  se(): number {
    const value = this.ue();
    return value % 2 === 1 ? (value + 1) / 2 : -value / 2;
  }
}

/** The NAL unit's payload without emulation-prevention bytes (00 00 03 → 00 00), at most `limit` bytes of it. */
function rbsp(nal: Uint8Array, limit: number): Uint8Array {
  const out: number[] = [];
  let zeros = 0;
  for (let i = 1; i < nal.length && out.length < limit; i++) {
    const byte = nal[i]!;
    if (zeros >= 2 && byte === 3) {
      zeros = 0;
      continue;
    }
    zeros = byte === 0 ? zeros + 1 : 0;
    out.push(byte);
  }
  return Uint8Array.from(out);
}

/** The NAL units of an Annex B access unit. */
function nalUnits(data: Uint8Array): Uint8Array[] {
  const starts: number[] = [];
  for (let i = 0; i + 2 < data.length; i++) {
    if (data[i] === 0 && data[i + 1] === 0 && data[i + 2] === 1) {
      starts.push(i + 3);
      i += 2;
    }
  }
  return starts.map((start, index) => {
    let end = index + 1 < starts.length ? starts[index + 1]! - 3 : data.length;
    while (end > start && data[end - 1] === 0) end -= 1;
    return data.subarray(start, end);
  });
}

const HIGH_PROFILES = new Set([100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135]);

function readSps(nal: Uint8Array): { log2MaxFrameNum: number; separateColourPlane: boolean } {
  const reader = new BitReader(rbsp(nal, 64));
  const profile = reader.u(8);
  reader.u(16); // constraint flags, level
  reader.ue(); // seq_parameter_set_id
  let separateColourPlane = false;
  if (HIGH_PROFILES.has(profile)) {
    const chromaFormat = reader.ue();
    if (chromaFormat === 3) separateColourPlane = reader.u(1) === 1;
    reader.ue(); // bit_depth_luma_minus8
    reader.ue(); // bit_depth_chroma_minus8
    reader.u(1); // qpprime_y_zero_transform_bypass_flag
    if (reader.u(1) === 1) {
      for (let list = 0; list < (chromaFormat === 3 ? 12 : 8); list++) {
        if (reader.u(1) === 0) continue;
        let last = 8;
        let next = 8;
        for (let j = 0; j < (list < 6 ? 16 : 64) && next !== 0; j++) {
          next = (last + reader.se() + 256) % 256;
          last = next === 0 ? last : next;
        }
      }
    }
  }
  return { log2MaxFrameNum: reader.ue() + 4, separateColourPlane };
}

class H264Chain {
  private sps: { log2MaxFrameNum: number; separateColourPlane: boolean } | undefined;
  private intact = false;
  private lastRefFrameNum = 0;
  private size = '';
  unparsed = 0;

  /** Whether this access unit decodes, given what arrived before it. */
  accept(data: Uint8Array, keyframe: boolean, size: string): boolean {
    let slice: { idr: boolean; ref: boolean; frameNum: number } | undefined;
    try {
      for (const nal of nalUnits(data)) {
        const type = nal[0]! & 0x1f;
        if (type === 7) this.sps = readSps(nal);
        if ((type === 1 || type === 5) && this.sps) {
          const reader = new BitReader(rbsp(nal, 32));
          reader.ue(); // first_mb_in_slice
          reader.ue(); // slice_type
          reader.ue(); // pic_parameter_set_id
          if (this.sps.separateColourPlane) reader.u(2);
          const frameNum = reader.u(this.sps.log2MaxFrameNum);
          slice = { idr: type === 5, ref: ((nal[0]! >> 5) & 3) !== 0, frameNum };
          break;
        }
      }
    } catch {
      slice = undefined;
    }
    if (!slice) {
      // Unreadable: trust the keyframe flag, and the chain as it stood.
      this.unparsed += 1;
      if (keyframe) {
        this.intact = true;
        this.size = size;
      }
      return this.intact && size === this.size;
    }
    if (slice.idr) {
      this.intact = true;
      this.size = size;
      this.lastRefFrameNum = slice.frameNum;
      return true;
    }
    const expected = (this.lastRefFrameNum + 1) % 2 ** this.sps!.log2MaxFrameNum;
    if (!this.intact || slice.frameNum !== expected || size !== this.size) {
      this.intact = false;
      return false;
    }
    if (slice.ref) this.lastRefFrameNum = slice.frameNum;
    return true;
  }
}

// ---------------------------------------------------------------------------------------------------------------

const report: TViewerReport = {
  nickname: NICKNAME,
  clockOffset: 0,
  syncRtt: Number.POSITIVE_INFINITY,
  frames: [],
  layers: [],
  configs: [],
  errors: [],
  acksSent: 0,
  cpuMs: 0,
  unparsedFrames: 0,
  closed: null,
};
const chain = new H264Chain();
const socket = new WebSocket(SERVER_URL, { origin: ORIGIN });
let bytesReceived = 0;
let bytesAcked = 0;
/** When the last counted message arrived: the ack's `t`, since all its bytes were here by then. */
let lastArrival = 0;
let ackedAt = Number.NEGATIVE_INFINITY;
let ackTimer: NodeJS.Timeout | undefined;
let pingTimer: NodeJS.Timeout | undefined;
let syncPongs = 0;
let cpuAtJoin: NodeJS.CpuUsage | undefined;
let joined = false;
let finished = false;

const send = (message: object) => {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
};
const tell = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);

function ping() {
  send({ type: 'system/ping', t: performance.now() });
}

function ack() {
  clearTimeout(ackTimer);
  ackTimer = undefined;
  if (bytesReceived === bytesAcked) return;
  bytesAcked = bytesReceived;
  ackedAt = performance.now();
  send({ type: 'stream/ack', bytes: bytesReceived, t: lastArrival });
  report.acksSent += 1;
}

function counted(byteLength: number, at: number) {
  bytesReceived += byteLength;
  lastArrival = at;
  if (!ACKS) return;
  const wait = ackedAt + ACK_EVERY_MS - at;
  if (wait <= 0) ack();
  else ackTimer ??= setTimeout(ack, wait);
}

function join() {
  if (joined) return;
  joined = true;
  send({ type: 'member/join', nickname: NICKNAME, decoders: DECODERS, layer: LAYER, acks: ACKS });
  pingTimer = setInterval(ping, PING_EVERY_MS);
}

socket.on('open', () => {
  for (let i = 0; i < SYNC_PINGS; i++) setTimeout(ping, i * 30);
  // Joins once the sync pings are back, or after a second whatever came back.
  setTimeout(join, 1000);
});

socket.on('message', (data, isBinary) => {
  const at = performance.now();
  const bytes = data as Buffer;
  if (isBinary) {
    counted(bytes.byteLength, at);
    if (isPaddingFrame(bytes)) {
      report.frames.push([at, 'padding', 0, bytes.byteLength, 0, 0, 0, 0, 0]);
      return;
    }
    const frame = decodeMediaFrame(bytes);
    const size = `${frame.width}x${frame.height}`;
    const decodable =
      frame.codec === 'h264' ? chain.accept(frame.data, frame.keyframe, size) : frame.codec === 'jpeg';
    report.frames.push([
      at,
      frame.codec,
      frame.keyframe ? 1 : 0,
      bytes.byteLength,
      frame.width,
      frame.height,
      frame.timestamp,
      decodable || frame.codec === 'opus' ? 1 : 0,
      frame.codec === 'opus' ? opusPacketSamples(frame.data) / 48 : 0,
    ]);
    return;
  }
  const message = JSON.parse(bytes.toString('utf8')) as TServerMessage;
  switch (message.type) {
    case 'system/pong': {
      const rtt = at - message.t;
      if (rtt < report.syncRtt) {
        report.syncRtt = rtt;
        report.clockOffset = message.serverTime - (message.t + at) / 2;
      }
      syncPongs += 1;
      if (syncPongs === SYNC_PINGS) join();
      return;
    }
    case 'member/list':
      cpuAtJoin = process.cpuUsage();
      tell({ type: 'joined', at });
      return;
    case 'stream/layer':
      report.layers.push({ at, layer: message.layer, choice: message.choice, reason: message.reason });
      return;
    case 'stream/config':
      report.configs.push({
        at,
        codec: message.codec,
        audio: message.audio,
        layers: message.layers,
        bitrateKbps: message.bitrateKbps,
      });
      return;
    case 'system/error':
      report.errors.push({ at, code: message.code, about: message.about });
      return;
    default:
      return;
  }
});

socket.on('close', (code, reason) => {
  report.closed = { at: performance.now(), code, reason: reason.toString() };
  if (!joined) tell({ type: 'refused', code, reason: reason.toString() });
});
socket.on('error', (error) => tell({ type: 'error', message: error.message }));

function finish() {
  if (finished) return;
  finished = true;
  clearTimeout(ackTimer);
  clearInterval(pingTimer);
  report.unparsedFrames = chain.unparsed;
  const cpu = process.cpuUsage(cpuAtJoin);
  report.cpuMs = (cpu.user + cpu.system) / 1000;
  socket.terminate();
  process.stdout.write(`${JSON.stringify({ type: 'report', report })}\n`, () => process.exit(0));
}

process.stdin.on('data', finish);
process.stdin.on('end', finish);
