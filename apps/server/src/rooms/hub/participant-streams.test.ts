// Which streams a participant gets and how they start, on in-memory sources shaped like the media pipeline's: an
// H.264 picture whose deltas need their keyframe, Opus packets, and a screencast that runs only while watched.
import { decodeMediaFrame, type TMediaFrame, type TServerMessage } from '@rooms/api/room-protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MediaSource, RoomSession, TMediaChunk, TMediaCodec } from '../room-session';
import type { MediaPeer } from './media-fanout';
import { ParticipantStreams } from './participant-streams';

class MemorySource implements MediaSource {
  readonly listeners = new Set<(chunk: TMediaChunk) => void>();
  group: TMediaChunk[] = [];
  constructor(
    readonly codec: TMediaCodec,
    readonly bitrateKbps?: number,
  ) {}
  subscribe(listener: (chunk: TMediaChunk) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  latestKeyframe(): TMediaChunk | undefined {
    return this.group[0];
  }
  sinceKeyframe(): readonly TMediaChunk[] {
    return this.group;
  }
  emit(keyframe: boolean, bytes = 10): void {
    const chunk: TMediaChunk = {
      codec: this.codec,
      keyframe,
      timestamp: performance.now(),
      data: new Uint8Array(bytes),
      width: this.codec === 'opus' ? undefined : 1280,
      height: this.codec === 'opus' ? undefined : 720,
    };
    if (keyframe) this.group = [chunk];
    else this.group.push(chunk);
    for (const listener of this.listeners) listener(chunk);
  }
}

class Peer implements MediaPeer {
  readonly frames: TMediaFrame[] = [];
  readonly messages: TServerMessage[] = [];
  bufferedAmount = 0;
  /** While stalled, frames are taken but never written out, as on a socket whose reader stopped. */
  stalled = false;
  private readonly held: (() => void)[] = [];
  sendFrame(frame: Uint8Array, written: () => void): void {
    this.frames.push(decodeMediaFrame(frame));
    if (this.stalled) {
      this.bufferedAmount += frame.byteLength;
      this.held.push(written);
    } else written();
  }
  send(message: TServerMessage): void {
    this.messages.push(message);
  }
  drain(): void {
    this.stalled = false;
    this.bufferedAmount = 0;
    for (const written of this.held.splice(0)) written();
  }
  codecs(): string[] {
    return this.frames.map((frame) => `${frame.codec}${frame.keyframe ? '*' : ''}`);
  }
}

function room() {
  const video = new MemorySource('h264', 2500);
  const audio = new MemorySource('opus', 96);
  const screencast = new MemorySource('jpeg');
  const session = {
    video,
    audio,
    fallbackVideo: screencast,
    viewport: { width: 1280, height: 720 },
  } as unknown as RoomSession;
  return { video, audio, screencast, streams: new ParticipantStreams(session) };
}

describe('participant streams', () => {
  it('gives H.264 and Opus to a WebCodecs browser, starting from the latest keyframe and its deltas', () => {
    const { video, audio, screencast, streams } = room();
    const early = new Peer();
    expect(streams.choose(['h264', 'opus', 'jpeg'])).toEqual({
      codec: 'h264',
      audio: 'opus',
      bitrateKbps: 2500,
      layers: [{ name: 'high', width: 1280, height: 720, bitrateKbps: 2500 }],
    });
    streams.add(early, ['h264', 'opus', 'jpeg']);
    video.emit(true);
    video.emit(false);
    audio.emit(true);
    video.emit(false);
    expect(early.codecs()).toEqual(['h264*', 'h264', 'opus*', 'h264']);

    // A late joiner gets the keyframe and both deltas at once, so its decoder reaches the present.
    const late = new Peer();
    streams.add(late, ['h264', 'opus']);
    expect(late.codecs()).toEqual(['h264*', 'h264', 'h264', 'opus*']);
    // Nobody asked for the screencast: it is not even subscribed.
    expect(screencast.listeners.size).toBe(0);
  });

  it('gives the screencast to a browser without H.264, with sound if it decodes Opus, and lets go after', () => {
    const { audio, screencast, streams } = room();
    expect(streams.choose(['jpeg'])).toEqual({ codec: 'jpeg', audio: null, bitrateKbps: null, layers: [] });
    expect(streams.choose(['jpeg', 'opus'])).toMatchObject({ codec: 'jpeg', audio: 'opus' });
    const old = new Peer();
    streams.add(old, ['jpeg']);
    expect(screencast.listeners.size).toBe(1);
    screencast.emit(true);
    audio.emit(true);
    expect(old.codecs()).toEqual(['jpeg*']);
    streams.remove(old);
    expect(screencast.listeners.size).toBe(0);
  });

  it('drops sound for a backed-up socket instead of queueing it, and picks up when it drains', () => {
    const { audio, streams } = room();
    const slow = new Peer();
    streams.add(slow, ['h264', 'opus']);
    slow.stalled = true;
    for (let i = 0; i < 50; i++) audio.emit(true, 200);
    // 200 ms of sound in flight at most; the rest was dropped, not held.
    expect(slow.frames).toHaveLength(10);
    expect(streams.takeStats(slow)).toMatchObject({ framesSent: 0, bytesSent: 10 * (16 + 200) });
  });

  it('skips a slow socket to the next keyframe while the others get every frame', () => {
    const { video, streams } = room();
    const fast = new Peer();
    const slow = new Peer();
    streams.add(fast, ['h264']);
    streams.add(slow, ['h264']);
    video.emit(true);
    // A socket whose buffers filled: frames stay unwritten and bytes pile up.
    slow.stalled = true;
    slow.bufferedAmount = 3 * 1024 * 1024;
    for (let i = 0; i < 10; i++) video.emit(false);
    slow.drain();
    video.emit(false); // no keyframe yet: still skipped, a delta without its references is useless
    video.emit(true);
    expect(fast.frames).toHaveLength(13);
    expect(slow.codecs().at(-1)).toBe('h264*');
    expect(slow.frames.length).toBeLessThan(13);
    expect(streams.takeStats(slow)?.framesSkipped).toBeGreaterThan(0);
  });

  describe('with the clock', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('rides out a 100 ms pause in writing H.264, but skips a socket still unwritten after 250 ms', () => {
      vi.useFakeTimers({ toFake: ['performance'] });
      const { video, streams } = room();
      const peer = new Peer();
      streams.add(peer, ['h264']);
      video.emit(true);
      // Writes complete late (the server was busy for 100 ms): every frame still goes out.
      peer.stalled = true;
      for (let i = 0; i < 3; i++) {
        video.emit(false);
        vi.advanceTimersByTime(33);
      }
      peer.drain();
      video.emit(false);
      expect(peer.codecs()).toEqual(['h264*', 'h264', 'h264', 'h264', 'h264']);

      // Nothing written for 300 ms: the next delta is skipped, and the next keyframe starts it again.
      peer.stalled = true;
      video.emit(false);
      vi.advanceTimersByTime(300);
      video.emit(false);
      peer.drain();
      video.emit(false);
      video.emit(true);
      expect(peer.codecs().slice(5)).toEqual(['h264', 'h264*']);
    });
  });
});
