// Just enough H.264 bitstream reading for WebCodecs: split an Annex B access unit into NAL units, find the SPS a
// keyframe carries, and name the stream as an RFC 6381 codec string (avc1.PPCCLL) from it.

export const NAL_TYPE = { idr: 5, sps: 7, pps: 8, aud: 9 } as const;

/**
 * The NAL units of an Annex B byte stream, each without its start code (00 00 01 or 00 00 00 01). Bytes before
 * the first start code are not a NAL unit and are skipped; trailing zero bytes belong to the next start code.
 */
export function nalUnits(data: Uint8Array): Uint8Array[] {
  const units: Uint8Array[] = [];
  let start = -1;
  let i = 0;
  while (i + 2 < data.length) {
    if (data[i] === 0 && data[i + 1] === 0 && data[i + 2] === 1) {
      if (start >= 0) units.push(data.subarray(start, trimZeros(data, start, i)));
      i += 3;
      start = i;
    } else {
      i += 1;
    }
  }
  if (start >= 0 && start < data.length) units.push(data.subarray(start, data.length));
  return units.filter((unit) => unit.length > 0);
}

/** Where a NAL unit ending at `end` really ends: the zero of a 4-byte start code is not its payload. */
function trimZeros(data: Uint8Array, start: number, end: number): number {
  let stop = end;
  while (stop > start && data[stop - 1] === 0) stop -= 1;
  return stop;
}

export function nalType(unit: Uint8Array): number {
  return (unit[0] ?? 0) & 0x1f;
}

/** The first sequence parameter set in an access unit, or null. */
export function findSps(accessUnit: Uint8Array): Uint8Array | null {
  return nalUnits(accessUnit).find((unit) => nalType(unit) === NAL_TYPE.sps) ?? null;
}

/** Whether the access unit holds an IDR slice, the only place a decoder can start. */
export function hasIdr(accessUnit: Uint8Array): boolean {
  return nalUnits(accessUnit).some((unit) => nalType(unit) === NAL_TYPE.idr);
}

/**
 * `avc1.PPCCLL` from an SPS NAL unit (header byte included): profile_idc, the constraint flags byte and
 * level_idc, the three bytes after the header. None of them can hold an emulation prevention byte, since
 * profile_idc is never zero.
 */
export function avcCodecString(sps: Uint8Array): string {
  if (sps.length < 4 || nalType(sps) !== NAL_TYPE.sps) throw new Error('not a sequence parameter set');
  const hex = (byte: number | undefined) => (byte ?? 0).toString(16).toUpperCase().padStart(2, '0');
  return `avc1.${hex(sps[1])}${hex(sps[2])}${hex(sps[3])}`;
}

/** The codec string a probe asks about: main profile, level 3.1 (720p30), as rooms encode it. */
export const AVC_PROBE_CODEC = 'avc1.4D401F';
