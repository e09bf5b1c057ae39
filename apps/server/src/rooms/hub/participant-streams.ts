// Which of the room's streams each participant gets. A room on the media pipeline has an H.264 picture, Opus
// sound and a JPEG screencast beside them; a participant whose browser decodes H.264 (it says so in member/join)
// gets the H.264 picture, everyone else the screencast, and sound goes to whoever decodes Opus. Each stream has one
// fanout per room, so a stream nobody takes is never subscribed (the screencast then does not even run).
import type { TMediaCodecName } from '@rooms/api/room-protocol';
import type { RoomSession } from '../room-session';
import {
  AUDIO_BACKPRESSURE,
  DEFAULT_BACKPRESSURE,
  H264_BACKPRESSURE,
  MediaFanout,
  type MediaPeer,
  type TBackpressure,
  type TFanoutStats,
} from './media-fanout';

/** What a participant is told in stream/config about its streams. */
export interface TStreamChoice {
  codec: TMediaCodecName;
  audio: TMediaCodecName | null;
  bitrateKbps: number | null;
}

export class ParticipantStreams {
  private readonly video: MediaFanout;
  private readonly fallback: MediaFanout | undefined;
  private readonly audio: MediaFanout | undefined;
  private readonly joined = new Map<MediaPeer, MediaFanout[]>();

  /** `backpressure` overrides the picture's limits (tests, benchmarks); by default they suit its codec. */
  constructor(
    private readonly session: RoomSession,
    backpressure?: TBackpressure,
  ) {
    const limitsFor = (codec: TMediaCodecName) =>
      backpressure ?? (codec === 'h264' ? H264_BACKPRESSURE : DEFAULT_BACKPRESSURE);
    this.video = new MediaFanout(session.video, limitsFor(session.video.codec));
    this.fallback =
      session.fallbackVideo && new MediaFanout(session.fallbackVideo, limitsFor(session.fallbackVideo.codec));
    this.audio = session.audio && new MediaFanout(session.audio, AUDIO_BACKPRESSURE);
  }

  /** The streams for a participant who decodes these codecs. */
  choose(decoders: readonly TMediaCodecName[]): TStreamChoice {
    const [picture, sound] = this.fanoutsFor(decoders);
    const source = picture === this.video ? this.session.video : this.session.fallbackVideo!;
    return {
      codec: source.codec,
      audio: sound ? this.session.audio!.codec : null,
      bitrateKbps: source.bitrateKbps ?? null,
    };
  }

  /** Starts sending; call after the participant has its stream/config. */
  add(peer: MediaPeer, decoders: readonly TMediaCodecName[]): void {
    if (this.joined.has(peer)) return;
    const fanouts = this.fanoutsFor(decoders).filter((fanout): fanout is MediaFanout => fanout !== undefined);
    this.joined.set(peer, fanouts);
    for (const fanout of fanouts) fanout.add(peer);
  }

  remove(peer: MediaPeer): void {
    for (const fanout of this.joined.get(peer) ?? []) fanout.remove(peer);
    this.joined.delete(peer);
  }

  /** The peer's counters since the last call: picture frames, and bytes of picture and sound. */
  takeStats(peer: MediaPeer): TFanoutStats | undefined {
    const fanouts = this.joined.get(peer);
    if (!fanouts) return undefined;
    const total: TFanoutStats = { framesSent: 0, framesSkipped: 0, bytesSent: 0 };
    for (const fanout of fanouts) {
      const stats = fanout.takeStats(peer);
      if (!stats) continue;
      total.bytesSent += stats.bytesSent;
      if (fanout === this.audio) continue;
      total.framesSent += stats.framesSent;
      total.framesSkipped += stats.framesSkipped;
    }
    return total;
  }

  close(): void {
    for (const fanout of [this.video, this.fallback, this.audio]) fanout?.close();
    this.joined.clear();
  }

  private fanoutsFor(decoders: readonly TMediaCodecName[]): [MediaFanout, MediaFanout | undefined] {
    const encoded = this.session.video.codec !== 'jpeg';
    // Every browser shows JPEG; the screencast is the picture for anyone without the room's codec.
    const picture =
      !encoded || decoders.includes(this.session.video.codec) || !this.fallback ? this.video : this.fallback;
    const sound = this.audio && decoders.includes(this.session.audio!.codec) ? this.audio : undefined;
    return [picture, sound];
  }
}
