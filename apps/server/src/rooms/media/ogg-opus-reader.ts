// Turns ffmpeg's Ogg Opus output into Opus packets. Ogg is only framing on the pipe (every page says how long its
// segments are); the encoder is told to end a page after every 20 ms packet, so packets leave as soon as they are
// encoded. The two header packets (OpusHead, OpusTags) are read, not handed out.

export interface TOpusPacket {
  data: Uint8Array;
  /** Where this packet's sound ends, in 48 kHz samples since the stream began (pre-skip removed). */
  endSample: number;
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
    // page (rare: the encoder is told to flush every packet) are placed 20 ms apart before it.
    packets.forEach((packet, index) => {
      if (this.headersSeen < 2) {
        this.header(packet);
        return;
      }
      const endSample = granule - (packets.length - 1 - index) * 960 - this.preSkip;
      this.onPacket({ data: packet, endSample });
    });
  }

  private header(packet: Buffer): void {
    if (this.headersSeen === 0 && packet.toString('latin1', 0, 8) === 'OpusHead') {
      this.preSkip = packet.readUInt16LE(10);
    }
    this.headersSeen += 1;
  }
}
