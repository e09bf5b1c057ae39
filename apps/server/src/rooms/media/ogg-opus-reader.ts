// Turns ffmpeg's Ogg Opus output into Opus packets. Ogg is only framing on the pipe (every page says how long its
// segments are); the encoder is told to end a page after every packet, so packets leave as soon as they are
// encoded. The two header packets (OpusHead, OpusTags) are read, not handed out.

export interface TOpusPacket {
  data: Uint8Array;
  /** Where this packet's sound ends, in 48 kHz samples since the stream began (pre-skip removed). */
  endSample: number;
  /** How much sound the packet holds, in 48 kHz samples. */
  samples: number;
}

/** Frame length in 48 kHz samples by the TOC byte's configuration (RFC 6716 §3.1): SILK, hybrid, CELT. */
function frameSamples(config: number): number {
  if (config < 12) return [480, 960, 1920, 2880][config % 4]!;
  if (config < 16) return [480, 960][config % 2]!;
  return [120, 240, 480, 960][config % 4]!;
}

/** The sound an Opus packet holds, from its TOC byte and frame count (RFC 6716 §3.1–3.2), in 48 kHz samples. */
export function opusPacketSamples(packet: Uint8Array): number {
  const toc = packet[0];
  if (toc === undefined) return 0;
  const code = toc & 3;
  const frames = code === 0 ? 1 : code === 3 ? (packet[1] ?? 0) & 0x3f : 2;
  return frames * frameSamples(toc >> 3);
}

const PAGE_HEADER_BYTES = 27;

export class OggOpusReader {
  private buffer: Buffer = Buffer.alloc(0);
  /** A packet that continues on the next page. */
  private partial: Buffer[] = [];
  private headersSeen = 0;
  private preSkip = 0;

  constructor(private readonly onPacket: (packet: TOpusPacket) => void) {}

  push(data: Buffer): void {
    this.buffer = this.buffer.length === 0 ? data : Buffer.concat([this.buffer, data]);
    for (;;) {
      if (this.buffer.length < PAGE_HEADER_BYTES) return;
      if (this.buffer.toString('latin1', 0, 4) !== 'OggS') throw new Error('lost Ogg page sync');
      const segments = this.buffer[26]!;
      const headerBytes = PAGE_HEADER_BYTES + segments;
      if (this.buffer.length < headerBytes) return;
      const lacing = this.buffer.subarray(PAGE_HEADER_BYTES, headerBytes);
      const bodyBytes = lacing.reduce((sum, value) => sum + value, 0);
      if (this.buffer.length < headerBytes + bodyBytes) return;
      const granule = Number(this.buffer.readBigInt64LE(6));
      const body = this.buffer.subarray(headerBytes, headerBytes + bodyBytes);
      this.buffer = this.buffer.subarray(headerBytes + bodyBytes);
      this.page(lacing, body, granule);
    }
  }

  private page(lacing: Uint8Array, body: Buffer, granule: number): void {
    const packets: Buffer[] = [];
    let offset = 0;
    for (const value of lacing) {
      this.partial.push(body.subarray(offset, offset + value));
      offset += value;
      // A segment shorter than 255 bytes ends the packet.
      if (value < 255) {
        packets.push(Buffer.concat(this.partial));
        this.partial = [];
      }
    }
    // The granule position is the end of the last packet completed on this page; earlier packets on the same
    // page (rare: the encoder is told to flush every packet) end where the ones after them begin.
    let first = 0;
    while (this.headersSeen < 2 && first < packets.length) this.header(packets[first++]!);
    let endSample = granule - this.preSkip;
    const placed = packets
      .slice(first)
      .reverse()
      .map((data) => {
        const packet = { data, endSample, samples: opusPacketSamples(data) };
        endSample -= packet.samples;
        return packet;
      });
    for (const packet of placed.reverse()) this.onPacket(packet);
  }

  private header(packet: Buffer): void {
    if (this.headersSeen === 0 && packet.toString('latin1', 0, 8) === 'OpusHead') {
      this.preSkip = packet.readUInt16LE(10);
    }
    this.headersSeen += 1;
  }
}
