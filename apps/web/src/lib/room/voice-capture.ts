// This member's microphone: getUserMedia with the browser's echo cancellation and noise suppression, 20 ms blocks
// from an AudioWorklet (voice-capture.worklet.ts), and WebCodecs' AudioEncoder making one Opus packet of each block
// the session lets through (voice-session.ts decides: push-to-talk held, or the open mic hearing a voice). Nothing
// is encoded, sent or kept while it is closed; the microphone itself is asked for only when this member first talks.
import { VOICE_BITRATE, VOICE_FRAME_MS } from '@rooms/api/room-protocol';
import type { TVoiceBlock } from './voice-capture.worklet';
import captureUrl from './voice-capture.worklet.ts?worker&url';

/** RMS 0..1 of a block. */
export function blockLevel(samples: Float32Array): number {
  let sum = 0;
  for (const sample of samples) sum += sample * sample;
  return samples.length > 0 ? Math.sqrt(sum / samples.length) : 0;
}

export interface TVoiceCaptureEvents {
  /** A block was captured, at `level`: whether to encode and send it. */
  admit(level: number): boolean;
  /** One Opus packet, with the time (ms since the epoch, this machine's clock) its sound was captured. */
  packet(data: Uint8Array, capturedAt: number): void;
  /** The encoder broke (a browser without Opus encoding). */
  failed(): void;
}

export class VoiceCapture {
  private stream: MediaStream | null = null;
  private source: MediaStreamAudioSourceNode | null = null;
  private node: AudioWorkletNode | null = null;
  private encoder: AudioEncoder | null = null;
  private closed = false;

  constructor(
    private readonly context: AudioContext,
    private readonly events: TVoiceCaptureEvents,
  ) {}

  /** Asks for the microphone (the browser's prompt, once) and starts capturing; rejects when refused. */
  async start(): Promise<void> {
    if (typeof AudioEncoder === 'undefined') throw new Error('AudioEncoder is not available');
    const stream = await navigator.mediaDevices.getUserMedia({
      audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true, channelCount: 1 },
    });
    if (this.closed) {
      for (const track of stream.getTracks()) track.stop();
      return;
    }
    this.stream = stream;
    await this.context.audioWorklet.addModule(captureUrl);
    const encoder = new AudioEncoder({
      output: (chunk) => {
        const data = new Uint8Array(chunk.byteLength);
        chunk.copyTo(data);
        this.events.packet(data, chunk.timestamp / 1000);
      },
      error: () => this.events.failed(),
    });
    encoder.configure({
      codec: 'opus',
      sampleRate: this.context.sampleRate,
      numberOfChannels: 1,
      bitrate: VOICE_BITRATE,
      opus: { frameDuration: VOICE_FRAME_MS * 1000 },
    } as AudioEncoderConfig);
    this.encoder = encoder;
    const source = this.context.createMediaStreamSource(stream);
    const node = new AudioWorkletNode(this.context, 'voice-capture', {
      numberOfInputs: 1,
      numberOfOutputs: 0,
      channelCount: 1,
      channelCountMode: 'explicit',
    });
    node.port.onmessage = (event: MessageEvent<TVoiceBlock>) => this.block(event.data.samples);
    source.connect(node);
    this.source = source;
    this.node = node;
  }

  close(): void {
    this.closed = true;
    this.node?.port.close();
    this.node?.disconnect();
    this.source?.disconnect();
    for (const track of this.stream?.getTracks() ?? []) track.stop();
    if (this.encoder && this.encoder.state !== 'closed') this.encoder.close();
    this.stream = null;
    this.encoder = null;
  }

  private block(samples: Float32Array<ArrayBuffer>): void {
    const encoder = this.encoder;
    if (encoder?.state !== 'configured') return;
    if (!this.events.admit(blockLevel(samples))) return;
    // The block's first sample was captured one block ago (and the worklet's quantum before that).
    const capturedAt = performance.timeOrigin + performance.now() - VOICE_FRAME_MS;
    const data = new AudioData({
      format: 'f32-planar',
      sampleRate: this.context.sampleRate,
      numberOfFrames: samples.length,
      numberOfChannels: 1,
      timestamp: Math.round(capturedAt * 1000),
      data: samples,
    });
    encoder.encode(data);
    data.close();
  }
}
