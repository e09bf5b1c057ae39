// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { findLayer, LAYER_CHOICE_KEY, layerSize, storedLayerChoice, storeLayerChoice } from './layer-choice';

const LAYERS = [
  { name: 'high', width: 1280, height: 720, bitrateKbps: 2000 },
  { name: 'medium', width: 854, height: 480, bitrateKbps: 900 },
  { name: 'low', width: 640, height: 360, bitrateKbps: 400 },
] as const;

describe('the kept layer choice', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('is Auto until the viewer chooses, and what they chose after', () => {
    expect(storedLayerChoice()).toBe('auto');
    storeLayerChoice('medium');
    expect(storedLayerChoice()).toBe('medium');
    storeLayerChoice('auto');
    expect(storedLayerChoice()).toBe('auto');
    expect(localStorage.getItem(LAYER_CHOICE_KEY)).toBeNull();
  });

  it('falls back to Auto for anything else kept, or storage that refuses', () => {
    localStorage.setItem(LAYER_CHOICE_KEY, 'ultra');
    expect(storedLayerChoice()).toBe('auto');
    const refused = () => {
      throw new Error('refused');
    };
    vi.stubGlobal('localStorage', { getItem: refused, setItem: refused, removeItem: refused });
    expect(() => storeLayerChoice('low')).not.toThrow();
    expect(storedLayerChoice()).toBe('auto');
  });

  it('names each layer by its size', () => {
    expect(layerSize(LAYERS[1])).toBe('854×480');
    expect(findLayer(LAYERS, 'low')).toEqual(LAYERS[2]);
    expect(findLayer(LAYERS, null)).toBeUndefined();
    expect(findLayer([], 'high')).toBeUndefined();
  });
});
