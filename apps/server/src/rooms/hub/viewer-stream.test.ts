// The layer each viewer gets and the order its bytes leave, on simulated links (testing/link-simulation.ts):
// the targets as a viewer would live them, scored as bench:network scores real viewers.
import { describe, expect, it } from 'vitest';
import { simulateViewer } from '../../testing/rooms/link-simulation';

describe('a viewer on a link', () => {
  it('keeps the room’s full layer on a fast link', () => {
    const result = simulateViewer({ link: { rates: [[0, 20_000]] }, durationMs: 20_000 });
    expect(result.layers.map((change) => change.layer)).toEqual(['high']);
    expect(result.fps(1000, 20_000)).toBeGreaterThanOrEqual(29);
    expect(result.sound(0, 19_000)).toMatchObject({ received: 1900, sent: 1900 });
  });

  it('keeps the room’s layer for a viewer on a fast link who joins mid-stream and gets the catch-up at once', () => {
    const result = simulateViewer({
      link: { rates: [[0, 20_000]], delayMs: 2 },
      durationMs: 12_000,
      joinAtMs: 1900,
    });
    expect(result.layers.map((change) => change.layer)).toEqual(['high']);
    expect(result.fps(3000, 12_000)).toBeGreaterThanOrEqual(29);
  });

  it('goes down to a layer a 1 Mbit/s link carries, with smooth pictures and every sound packet', () => {
    const result = simulateViewer({ link: { rates: [[0, 1000]] }, durationMs: 30_000 });
    expect(result.layerAt(5000)).toBe('low');
    expect(result.fps(5000, 30_000)).toBeGreaterThanOrEqual(24);
    expect(result.longestFreeze(5000, 30_000)).toBeLessThanOrEqual(500);
    const sound = result.sound(5000, 29_000);
    expect(sound.received / sound.sent).toBeGreaterThanOrEqual(0.98);
  });

  it('moves a viewer whose link carries a little less than the room’s layer to the one below, without freezes', () => {
    const result = simulateViewer({ link: { rates: [[0, 2200]] }, durationMs: 30_000 });
    expect(result.layerAt(5000)).toBe('medium');
    expect(result.fps(5000, 30_000)).toBeGreaterThanOrEqual(28);
    expect(result.longestFreeze(5000, 30_000)).toBeLessThanOrEqual(500);
    const sound = result.sound(5000, 29_000);
    expect(sound.received).toBe(sound.sent);
  });

  it('gives a 0.5 Mbit/s link all of the sound and a moving picture', () => {
    const result = simulateViewer({ link: { rates: [[0, 500]] }, durationMs: 30_000 });
    expect(result.fps(5000, 30_000)).toBeGreaterThanOrEqual(10);
    const sound = result.sound(5000, 29_000);
    expect(sound.received).toBe(sound.sent);
  });

  it('steps down within 2 s when the link drops from 5 to 1 Mbit/s, and back up within 10 s after', () => {
    const result = simulateViewer({
      link: {
        rates: [
          [0, 5000],
          [15_000, 1000],
          [30_000, 5000],
        ],
      },
      durationMs: 45_000,
    });
    expect(result.layerAt(14_000)).toBe('high');
    const down = result.layers.find((change) => change.at >= 15_000);
    expect(down?.at).toBeLessThanOrEqual(17_000);
    expect(result.longestFreeze(15_000, 30_000)).toBeLessThanOrEqual(1000);
    const up = result.layers.find((change) => change.at >= 30_000 && change.layer === 'high');
    expect(up?.at).toBeLessThanOrEqual(40_000);
  });

  it('stays on the room’s layer when the viewer’s browser stalls for a moment on a fast link', () => {
    const result = simulateViewer({
      link: {
        rates: [[0, 20_000]],
        stalls: [
          [5000, 600],
          [9000, 500],
          [14_000, 600],
        ],
      },
      durationMs: 20_000,
    });
    expect(result.layers.map((change) => change.layer)).toEqual(['high']);
  });

  it('keeps a fixed choice whatever the link does', () => {
    const result = simulateViewer({ link: { rates: [[0, 20_000]] }, durationMs: 10_000, choice: 'low' });
    expect(result.layers.map((change) => change.layer)).toEqual(['low']);
    expect(result.fps(1000, 10_000)).toBeGreaterThanOrEqual(29);
  });

  it('sends a viewer who does not acknowledge everything at once on the chosen layer, as before', () => {
    const result = simulateViewer({ link: { rates: [[0, 1000]] }, durationMs: 10_000, acks: false });
    expect(result.layers.map((change) => change.layer)).toEqual(['high']);
  });
});
