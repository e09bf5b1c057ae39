// The pipe hands over bytes in whatever pieces it likes; access units must come out whole, in Annex B, with the
// parameter sets in front of every keyframe.
import { describe, expect, it } from 'vitest';
import { FlvH264Reader, type TAccessUnit } from './flv-h264-reader';

const SPS = Buffer.from([0x67, 0x42, 0xc0, 0x1e, 0xaa]);
const PPS = Buffer.from([0x68, 0xce, 0x3c, 0x80]);
const IDR = Buffer.from([0x65, 0x88, 0x84, 0x00, 0x33]);
const P_SLICE = Buffer.from([0x41, 0x9a, 0x02, 0x04]);

function tag(type: number, body: Buffer): Buffer {
  const header = Buffer.alloc(11);
  header[0] = type;
  header.writeUIntBE(body.length, 1, 3);
  const previousSize = Buffer.alloc(4);
  previousSize.writeUInt32BE(11 + body.length);
  return Buffer.concat([header, body, previousSize]);
}

const lengthPrefixed = (...nals: Buffer[]) =>
  Buffer.concat(nals.flatMap((nal) => [Buffer.from([0, 0, 0, nal.length]), nal]));

function flvStream(): Buffer {
  const header = Buffer.from([0x46, 0x4c, 0x56, 1, 1, 0, 0, 0, 9, 0, 0, 0, 0]);
  const record = Buffer.concat([
    Buffer.from([1, 0x42, 0xc0, 0x1e, 0xff, 0xe1, 0, SPS.length]),
    SPS,
    Buffer.from([1, 0, PPS.length]),
    PPS,
  ]);
  return Buffer.concat([
    header,
    tag(18, Buffer.from('metadata')),
    tag(9, Buffer.concat([Buffer.from([0x17, 0, 0, 0, 0]), record])),
    tag(9, Buffer.concat([Buffer.from([0x17, 1, 0, 0, 0]), lengthPrefixed(IDR)])),
    tag(9, Buffer.concat([Buffer.from([0x27, 1, 0, 0, 0]), lengthPrefixed(P_SLICE)])),
  ]);
}

const annexB = (...nals: Buffer[]) => Buffer.concat(nals.flatMap((nal) => [Buffer.from([0, 0, 0, 1]), nal]));

describe('FlvH264Reader', () => {
  it.each([1, 3, 7, 1000])('yields whole access units from %i-byte pieces', (pieceBytes) => {
    const units: TAccessUnit[] = [];
    const reader = new FlvH264Reader((unit) => units.push(unit));
    const stream = flvStream();
    for (let offset = 0; offset < stream.length; offset += pieceBytes) {
      reader.push(stream.subarray(offset, offset + pieceBytes));
    }
    expect(units.map((unit) => unit.keyframe)).toEqual([true, false]);
    expect(Buffer.from(units[0]!.data)).toEqual(annexB(SPS, PPS, IDR));
    expect(Buffer.from(units[1]!.data)).toEqual(annexB(P_SLICE));
  });
});
