// Which of the room's streams each participant gets. A room on the media pipeline has an H.264 picture in layers,
// Opus sound and a JPEG screencast beside them; a participant whose browser decodes H.264 (it says so in
// member/join) gets the H.264 picture, at the layer their choice or link says (viewer-stream.ts), everyone else
// the screencast, and sound goes to whoever decodes Opus. Each stream has one fanout per room, so a stream nobody
// takes is never subscribed (a lower layer or the screencast then does not even run).
import type {
  TClientMessageOf,
  TMediaCodecName,
  TStreamLayer,
  TStreamLayerChoice,
} from '@rooms/api/room-protocol';
import { type MediaSource, pictureLadder, type RoomSession } from '../room-session';
import {
  AUDIO_BACKPRESSURE,
  DEFAULT_BACKPRESSURE,
  H264_BACKPRESSURE,
  MediaFanout,
  type MediaPeer,
  type TBackpressure,
  type TFanoutStats,
} from './media-fanout';
import { type TLayerFeed, type ViewerPeer, ViewerStream } from './viewer-stream';

/** What a participant is told in stream/config about its streams. */
export interface TStreamChoice {
  codec: TMediaCodecName;
  audio: TMediaCodecName | null;
  bitrateKbps: number | null;
  layers: TStreamLayer[];
}

/** How a viewer joins (member/join, beside the decoders that pick its streams): its kept layer, and whether it acks. */
export interface TViewerJoin {
  layer?: TStreamLayerChoice;
  acks?: boolean;
  /** A gateway sends this viewer's H.264 picture and sound from its feed of the room (fleet/room-feed.ts). */
  mediaByGateway?: boolean;
}

export class ParticipantStreams {
  private readonly video: MediaFanout;
  private readonly fallback: MediaFanout | undefined;
  private readonly audio: MediaFanout | undefined;
  /** The H.264 picture's layers with their sound, best first (the first is `video`); empty for the screencast. */
  private readonly layers: TLayerFeed[];
  private readonly joined = new Map<MediaPeer, MediaFanout[]>();
  private readonly viewers = new Map<MediaPeer, ViewerStream>();

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
    this.layers = session.video.codec === 'h264' ? this.layerFeeds(limitsFor('h264')) : [];
  }

  /** The streams for a participant who decodes these codecs. */
  choose(decoders: readonly TMediaCodecName[]): TStreamChoice {
    const [picture, sound] = this.fanoutsFor(decoders);
    const source = picture === this.video ? this.session.video : this.session.fallbackVideo!;
    return {
      codec: source.codec,
      audio: sound ? this.session.audio!.codec : null,
      bitrateKbps: source.bitrateKbps ?? null,
      layers:
        picture === this.video
          ? this.layers.map(({ name, width, height, bitrateKbps }) => ({ name, width, height, bitrateKbps }))
          : [],
    };
  }

  /** Starts sending; call after the participant has its stream/config. */
  add(peer: ViewerPeer, decoders: readonly TMediaCodecName[], join: TViewerJoin = {}): void {
    if (this.joined.has(peer) || this.viewers.has(peer)) return;
    const [picture, sound] = this.fanoutsFor(decoders);
    if (picture === this.video && this.layers.length > 0) {
      if (join.mediaByGateway) return;
      const viewer = new ViewerStream({
        peer,
        layers: this.layers,
        choice: join.layer ?? 'auto',
        withSound: sound !== undefined,
        acks: join.acks ?? false,
      });
      this.viewers.set(peer, viewer);
      viewer.start();
      return;
    }
    const fanouts = [picture, sound].filter((fanout): fanout is MediaFanout => fanout !== undefined);
    this.joined.set(peer, fanouts);
    for (const fanout of fanouts) fanout.add(peer);
  }

  /** A viewer's stream/ack or stream/choose; other participants have nothing to acknowledge or choose. */
  handle(peer: MediaPeer, message: TClientMessageOf<'stream/ack' | 'stream/choose'>): void {
    const viewer = this.viewers.get(peer);
    if (message.type === 'stream/ack') viewer?.acked(message.bytes, message.t, message.held);
    else viewer?.choose(message.layer);
  }

  remove(peer: MediaPeer): void {
    this.viewers.get(peer)?.close();
    this.viewers.delete(peer);
    for (const fanout of this.joined.get(peer) ?? []) fanout.remove(peer);
    this.joined.delete(peer);
  }

  /** The peer's counters since the last call: picture frames, and bytes of picture and sound. */
  takeStats(peer: MediaPeer): TFanoutStats | undefined {
    const viewer = this.viewers.get(peer);
    if (viewer) return viewer.takeStats();
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
    for (const viewer of this.viewers.values()) viewer.close();
    this.viewers.clear();
    for (const fanout of [this.video, this.fallback, this.audio]) fanout?.close();
    for (const layer of this.layers) {
      layer.video.close();
      layer.audio?.close();
    }
    this.joined.clear();
  }

  /** The session's picture ladder as fanouts, each layer with the sound its viewers hear. */
  private layerFeeds(limits: TBackpressure): TLayerFeed[] {
    const { session } = this;
    const audioKbps = (source: MediaSource | undefined) => source?.bitrateKbps ?? 0;
    // One fanout per sound source, shared by the layers that use it.
    const sounds = new Map<MediaSource, MediaFanout>();
    if (session.audio && this.audio) sounds.set(session.audio, this.audio);
    return pictureLadder(session).map((layer) => {
      const audio = layer.audio ?? session.audio;
      let soundFanout = audio && sounds.get(audio);
      if (audio && !soundFanout) {
        soundFanout = new MediaFanout(audio, AUDIO_BACKPRESSURE);
        sounds.set(audio, soundFanout);
      }
      return {
        name: layer.name,
        width: layer.width,
        height: layer.height,
        bitrateKbps: layer.bitrateKbps,
        video: layer.source === session.video ? this.video : new MediaFanout(layer.source, limits),
        audio: soundFanout,
        audioKbps: audioKbps(audio),
      };
    });
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
