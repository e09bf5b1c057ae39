// Other members' voices: one Opus decoder and one jitter buffer per speaker (the room sound's own worklet,
// sound.worklet.ts, each node with its own JitterBuffer), so a late packet of one speaker never holds back another;
// no mixing beyond the speakers' nodes meeting at the output. Each speaker has a gain this member can set to zero
// (mute for me). Speakers silent for a while are let go.
import type { TVoiceFrame } from '@rooms/api/room-protocol';
import { OPUS_SAMPLE_RATE, opusChannels } from './opus';
import type { TSoundWorkletMessage, TSoundWorkletOptions } from './sound.worklet';

interface TSpeaker {
  decoder: AudioDecoder;
  node: AudioWorkletNode;
  gain: GainNode;
  heardAt: number;
}

/** A speaker's packets count as sound now for this long (they come every 20 ms while talking). */
const SPEAKING_FRESH_MS = 300;
/** A speaker not heard for this long is let go (decoder closed, node disconnected). */
const SPEAKER_IDLE_MS = 30_000;
/**
 * A voice's jitter buffer waits less than the room's sound: nothing has to stay in step with a picture, and a
 * conversation suffers from delay more than from a rare gap. Voice frames come every 20 ms from one socket.
 */
const VOICE_JITTER = { targetMs: 40, maxMs: 120, floorMs: 10, windowMs: 1000 };

export class VoicePlayback {
  private readonly speakers = new Map<string, TSpeaker>();
  private readonly mutedForMe = new Set<string>();
  /** Where the speakers meet on their way to the speakers, measured for the page's meter (and the journeys). */
  private readonly analyser: AnalyserNode;
  private levels: Float32Array<ArrayBuffer> | null = null;
  private closed = false;

  /** `context`: where the voices play (the room's sound's, or the voice's own), with sound.worklet.ts loaded. */
  constructor(readonly context: AudioContext) {
    this.analyser = context.createAnalyser();
    this.analyser.fftSize = 2048;
    this.analyser.connect(context.destination);
  }

  /** Loudness of the voices reaching the speakers right now, RMS 0..1. */
  level(): number {
    this.levels ??= new Float32Array(this.analyser.fftSize);
    this.analyser.getFloatTimeDomainData(this.levels);
    let sum = 0;
    for (const sample of this.levels) sum += sample * sample;
    return Math.sqrt(sum / this.levels.length);
  }

  frame(frame: TVoiceFrame): void {
    if (this.closed) return;
    let speaker = this.speakers.get(frame.speaker);
    if (!speaker || speaker.decoder.state === 'closed') {
      speaker?.node.disconnect();
      speaker = this.createSpeaker(frame.speaker, opusChannels(frame.data));
      this.speakers.set(frame.speaker, speaker);
    }
    speaker.heardAt = performance.now();
    speaker.decoder.decode(
      new EncodedAudioChunk({ type: 'key', timestamp: Math.round(frame.timestamp * 1000), data: frame.data }),
    );
  }

  setMutedForMe(memberId: string, muted: boolean): void {
    if (muted) this.mutedForMe.add(memberId);
    else this.mutedForMe.delete(memberId);
    const speaker = this.speakers.get(memberId);
    if (speaker) speaker.gain.gain.setTargetAtTime(muted ? 0 : 1, this.context.currentTime, 0.015);
  }

  /** Whether anyone this member hears is speaking now (to lower the room's sound), and lets idle speakers go. */
  speaking(now = performance.now()): boolean {
    let heard = false;
    for (const [id, speaker] of this.speakers) {
      if (now - speaker.heardAt > SPEAKER_IDLE_MS) {
        this.dropSpeaker(id, speaker);
        continue;
      }
      if (now - speaker.heardAt <= SPEAKING_FRESH_MS && !this.mutedForMe.has(id)) heard = true;
    }
    return heard;
  }

  close(): void {
    this.closed = true;
    for (const [id, speaker] of this.speakers) this.dropSpeaker(id, speaker);
    this.analyser.disconnect();
  }

  private createSpeaker(id: string, channels: 1 | 2): TSpeaker {
    const options: TSoundWorkletOptions = { jitter: VOICE_JITTER };
    const node = new AudioWorkletNode(this.context, 'room-sound', {
      numberOfInputs: 0,
      numberOfOutputs: 1,
      outputChannelCount: [2],
      processorOptions: options,
    });
    const gain = this.context.createGain();
    gain.gain.value = this.mutedForMe.has(id) ? 0 : 1;
    node.connect(gain).connect(this.analyser);
    const decoder = new AudioDecoder({
      output: (data) => {
        try {
          const planes: Float32Array[] = [];
          for (let plane = 0; plane < data.numberOfChannels; plane += 1) {
            const samples = new Float32Array(data.numberOfFrames);
            data.copyTo(samples, { planeIndex: plane, format: 'f32-planar' });
            planes.push(samples);
          }
          const message: TSoundWorkletMessage = {
            type: 'chunk',
            timestamp: data.timestamp / 1000,
            channels: planes,
          };
          node.port.postMessage(
            message,
            planes.map((plane) => plane.buffer as ArrayBuffer),
          );
        } finally {
          data.close();
        }
      },
      // The decoder closed itself; the speaker's next packet builds a new one.
      error: () => undefined,
    });
    decoder.configure({ codec: 'opus', sampleRate: OPUS_SAMPLE_RATE, numberOfChannels: channels });
    return { decoder, node, gain, heardAt: performance.now() };
  }

  private dropSpeaker(id: string, speaker: TSpeaker): void {
    if (speaker.decoder.state !== 'closed') speaker.decoder.close();
    speaker.node.disconnect();
    speaker.gain.disconnect();
    this.speakers.delete(id);
  }
}
