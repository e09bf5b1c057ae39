import { EventEmitter } from 'node:events';
import type { CDPSession } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TMediaChunk } from '../room-session';
import { ScreencastSource } from './screencast-source';

/** Stands in for Chromium's side of a CDP session: records commands, lets the test push screencast frames. */
class ScreencastPeer extends EventEmitter {
  readonly sent: { method: string; params?: unknown }[] = [];
  private sessionId = 0;

  async send(method: string, params?: unknown): Promise<void> {
    this.sent.push({ method, params });
  }

  frame(text: string): void {
    this.emit('Page.screencastFrame', {
      data: Buffer.from(text).toString('base64'),
      sessionId: ++this.sessionId,
    });
  }
}

const text = (chunk: TMediaChunk | undefined) => (chunk ? Buffer.from(chunk.data).toString() : undefined);

describe('ScreencastSource', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  async function started(maxFrameRate: number) {
    const peer = new ScreencastPeer();
    const source = new ScreencastSource({ width: 640, height: 360, maxFrameRate });
    await source.follow(peer as unknown as CDPSession);
    const received: string[] = [];
    source.subscribe((chunk) => received.push(text(chunk)!));
    return { peer, source, received };
  }

  it('passes on at most the frame rate, acks every frame, and sends the newest dropped frame at its slot', async () => {
    const { peer, source, received } = await started(10);
    expect(peer.sent[0]).toMatchObject({
      method: 'Page.startScreencast',
      params: { format: 'jpeg', maxWidth: 640, maxHeight: 360 },
    });

    peer.frame('a');
    vi.advanceTimersByTime(20);
    peer.frame('b');
    vi.advanceTimersByTime(20);
    peer.frame('c');
    expect(received).toEqual(['a']);
    // 'c' was the last change: it must still reach viewers when the 100 ms slot comes, and 'b' never.
    vi.advanceTimersByTime(100);
    expect(received).toEqual(['a', 'c']);
    expect(text(source.latestKeyframe())).toBe('c');
    expect(peer.sent.filter((command) => command.method === 'Page.screencastFrameAck')).toHaveLength(3);
  });

  it('starts a capture again when its start hangs without a frame, and later switches are not held up', async () => {
    // The first start never answers (a page swapping renderer processes as the room opens its first page).
    const peer = new ScreencastPeer();
    let starts = 0;
    const send = peer.send.bind(peer);
    peer.send = (method: string, params?: unknown) => {
      if (method === 'Page.startScreencast' && ++starts === 1) {
        peer.sent.push({ method, params });
        return new Promise<void>(() => {});
      }
      return send(method, params);
    };
    const source = new ScreencastSource({ width: 640, height: 360, maxFrameRate: 10, lazy: true });
    await source.follow(peer as unknown as CDPSession);
    const received: string[] = [];
    source.subscribe((chunk) => received.push(text(chunk)!));
    await vi.advanceTimersByTimeAsync(999);
    expect(starts).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(peer.sent.map((command) => command.method).slice(-2)).toEqual([
      'Page.stopScreencast',
      'Page.startScreencast',
    ]);
    peer.frame('page');
    expect(received).toEqual(['page']);
    // A capture that sends frames is left alone.
    await vi.advanceTimersByTimeAsync(5000);
    expect(starts).toBe(2);
    // Another tab still takes over.
    const other = new ScreencastPeer();
    await source.follow(other as unknown as CDPSession);
    expect(other.sent[0]).toMatchObject({ method: 'Page.startScreencast' });
  });

  it('follows another tab without leaking a pending frame of the previous one', async () => {
    const { peer, source, received } = await started(10);
    peer.frame('old-1');
    peer.frame('old-2'); // too soon: pending for the next slot
    const next = new ScreencastPeer();
    await source.follow(next as unknown as CDPSession);
    expect(peer.sent.map((command) => command.method)).toContain('Page.stopScreencast');
    expect(next.sent[0]?.method).toBe('Page.startScreencast');

    vi.advanceTimersByTime(200);
    peer.frame('old-3');
    next.frame('new-1');
    expect(received).toEqual(['old-1', 'new-1']);
  });
});
