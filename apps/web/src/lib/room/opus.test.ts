import { describe, expect, it } from 'vitest';
import { opusChannels } from './opus';

describe('opusChannels', () => {
  it('reads the stereo flag of the TOC byte', () => {
    // config 31 (CELT FB 20 ms), code 0: 0xf8 mono, 0xfc stereo; SILK WB 20 ms mono is 0x48.
    expect(opusChannels(Uint8Array.of(0xfc, 1, 2))).toBe(2);
    expect(opusChannels(Uint8Array.of(0xf8, 1, 2))).toBe(1);
    expect(opusChannels(Uint8Array.of(0x48))).toBe(1);
    expect(opusChannels(new Uint8Array())).toBe(1);
  });
});
