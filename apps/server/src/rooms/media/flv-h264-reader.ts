// Turns ffmpeg's FLV output into H.264 access units in Annex B, one per video tag. FLV is used only as framing on
// the pipe: every tag carries its length, so an access unit is complete the moment its last byte arrives. Raw
// Annex B would need the next frame's start code to know where a frame ends, a whole frame of added latency.
//
// FLV stores H.264 as in MP4: SPS/PPS once in a sequence header (AVCDecoderConfigurationRecord) and the NAL
// units of each frame with length prefixes. We hand out Annex B (start codes) and put the SPS and PPS in front of
// every IDR frame, so each keyframe is a complete starting point for a decoder (WebCodecs without a description).

export interface TAccessUnit {
  /** Annex B: 00 00 00 01 before every NAL unit. */
  data: Uint8Array;
  /** Contains an IDR slice (NAL type 5): a decoder can start here. */
  keyframe: boolean;
}

const FLV_HEADER_BYTES = 9;
const PREVIOUS_TAG_SIZE_BYTES = 4;
const TAG_HEADER_BYTES = 11;
const TAG_VIDEO = 9;
const CODEC_AVC = 7;
const AVC_SEQUENCE_HEADER = 0;
const AVC_NALU = 1;
const START_CODE = Uint8Array.of(0, 0, 0, 1);
const NAL_IDR = 5;
const NAL_SPS = 7;

export class FlvH264Reader {
  private buffer: Buffer = Buffer.alloc(0);
  private headerRead = false;
  private lengthSize = 4;
  /** SPS and PPS from the sequence header, in Annex B. */
  private parameterSets: Uint8Array | undefined;

  constructor(private readonly onAccessUnit: (unit: TAccessUnit) => void) {}

  push(data: Buffer): void {
    this.buffer = this.buffer.length === 0 ? data : Buffer.concat([this.buffer, data]);
    for (;;) {
      if (!this.headerRead) {
        if (this.buffer.length < FLV_HEADER_BYTES + PREVIOUS_TAG_SIZE_BYTES) return;
        if (this.buffer.toString('latin1', 0, 3) !== 'FLV') throw new Error('not an FLV stream');
        const headerBytes = this.buffer.readUInt32BE(5);
        this.buffer = this.buffer.subarray(headerBytes + PREVIOUS_TAG_SIZE_BYTES);
        this.headerRead = true;
        continue;
      }
      if (this.buffer.length < TAG_HEADER_BYTES) return;
      const type = this.buffer[0]! & 0x1f;
      const size = this.buffer.readUIntBE(1, 3);
      const total = TAG_HEADER_BYTES + size + PREVIOUS_TAG_SIZE_BYTES;
      if (this.buffer.length < total) return;
      const body = this.buffer.subarray(TAG_HEADER_BYTES, TAG_HEADER_BYTES + size);
      this.buffer = this.buffer.subarray(total);
      if (type === TAG_VIDEO) this.videoTag(body);
    }
  }

  private videoTag(body: Buffer): void {
    if (body.length < 5 || (body[0]! & 0x0f) !== CODEC_AVC) return;
    const packetType = body[1];
    const payload = body.subarray(5);
    if (packetType === AVC_SEQUENCE_HEADER) this.sequenceHeader(payload);
    else if (packetType === AVC_NALU) this.frame(payload);
  }

  private sequenceHeader(record: Buffer): void {
    this.lengthSize = (record[4]! & 0x03) + 1;
    const parts: Uint8Array[] = [];
    let offset = 5;
    for (const countMask of [0x1f, 0xff]) {
      const count = record[offset]! & countMask;
      offset += 1;
      for (let i = 0; i < count; i++) {
        const length = record.readUInt16BE(offset);
        parts.push(START_CODE, record.subarray(offset + 2, offset + 2 + length));
        offset += 2 + length;
      }
    }
    this.parameterSets = Buffer.concat(parts);
  }

  private frame(payload: Buffer): void {
    const parts: Uint8Array[] = [];
    let keyframe = false;
    let hasSps = false;
    for (let offset = 0; offset + this.lengthSize <= payload.length; ) {
      const length = payload.readUIntBE(offset, this.lengthSize);
      offset += this.lengthSize;
      const nal = payload.subarray(offset, offset + length);
      offset += length;
      if (nal.length === 0) continue;
      const nalType = nal[0]! & 0x1f;
      if (nalType === NAL_IDR) keyframe = true;
      if (nalType === NAL_SPS) hasSps = true;
      parts.push(START_CODE, nal);
    }
    if (parts.length === 0) return;
    if (keyframe && !hasSps && this.parameterSets) parts.unshift(this.parameterSets);
    this.onAccessUnit({ data: Buffer.concat(parts), keyframe });
  }
}
