import { describe, expect, it } from 'vitest';
import { layerLadder } from './layer-ladder';

describe('layer ladder', () => {
  it('gives a free 720p room a medium and a low layer that fit slower links', () => {
    expect(layerLadder({ width: 1280, height: 720, bitrateKbps: 2500 })).toEqual([
      { name: 'high', width: 1280, height: 720, bitrateKbps: 2500, keyframeIntervalS: 2 },
      { name: 'medium', width: 854, height: 480, bitrateKbps: 1125, keyframeIntervalS: 1 },
      { name: 'low', width: 640, height: 360, bitrateKbps: 350, keyframeIntervalS: 1 },
    ]);
  });

  it('caps the lower layers of a Pro room, so a slow link still has a layer that fits', () => {
    const ladder = layerLadder({ width: 1920, height: 1080, bitrateKbps: 8000 });
    expect(ladder.map((layer) => [layer.name, layer.width, layer.height, layer.bitrateKbps])).toEqual([
      ['high', 1920, 1080, 8000],
      ['medium', 1280, 720, 1200],
      ['low', 960, 540, 350],
    ]);
  });

  it('leaves out layers too small or too cheap to be worth an encoder', () => {
    expect(layerLadder({ width: 400, height: 300, bitrateKbps: 300 }).map((layer) => layer.name)).toEqual([
      'high',
    ]);
    expect(layerLadder({ width: 1280, height: 720, bitrateKbps: 300 }).map((layer) => layer.name)).toEqual([
      'high',
      'medium',
    ]);
  });
});
