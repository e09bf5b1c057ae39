// This page's part in the room's voice: what the room says (voice on, who talks, whom the owner muted), this
// member's own talking (push-to-talk held, or the open mic hearing a voice), the microphone (asked for only when
// they first talk), others' voices (voice-playback.ts) and whom this member muted for themself; and, while anyone is
// heard, the room's own sound lowered (a setting kept in this browser). Plain TypeScript with a subscribe/snapshot
// pair for React (voice-controls.tsx).
import { decodeVoiceFrame, encodeVoiceFrame, type TVoiceState } from '@rooms/api/room-protocol';
import { OPUS_SAMPLE_RATE } from './opus';
import type { RoomConnection } from './room-connection';
import type { TVoiceEvent } from './room-moments';
import type { RoomSound } from './room-sound';
import workletUrl from './sound.worklet.ts?worker&url';
import { VoiceCapture } from './voice-capture';
import { VoicePlayback } from './voice-playback';

export type TMicStatus = 'off' | 'asking' | 'on' | 'denied' | 'unsupported';

export interface TVoiceSnapshot {
  room: Omit<TVoiceState, 'type'>;
  /** This member holds push-to-talk. */
  pushing: boolean;
  openMic: boolean;
  /** What this page sends now: the room hears this member. */
  talking: boolean;
  mic: TMicStatus;
  /** Members this member muted for themself. */
  mutedForMe: string[];
  /** Lower the room's sound while someone talks. */
  duck: boolean;
}

const DUCK_KEY = 'rooms.voiceDuck';
/** The open mic opens at this loudness (RMS, about −40 dBFS)… */
const OPEN_MIC_LEVEL = 0.01;
/** …and stays open this long after the last loud block, so words are not cut between syllables. */
const OPEN_MIC_HOLD_MS = 500;
/** How far the room's sound goes down while someone talks. */
const DUCK_LEVEL = 0.3;
const DUCK_CHECK_MS = 100;
/** More of the room's sound kept queued while voices play (bench/voice.ts measured its dry runs). */
const VOICE_HEADROOM_MS = 40;
/** How long after the last voice the room's sound keeps that headroom. */
const HEADROOM_HOLD_MS = 10_000;

export class VoiceSession {
  private snapshot: TVoiceSnapshot = {
    room: { enabled: true, speaking: [], muted: [] },
    pushing: false,
    openMic: false,
    talking: false,
    mic: 'off',
    mutedForMe: [],
    duck: globalThis.localStorage?.getItem(DUCK_KEY) !== 'false',
  };
  private readonly listeners = new Set<() => void>();
  private context: Promise<AudioContext> | null = null;
  private audio: AudioContext | null = null;
  private playback: VoicePlayback | null = null;
  private capture: VoiceCapture | null = null;
  private sequence = 0;
  private loudAt = Number.NEGATIVE_INFINITY;
  private readonly stopVoice: () => void;
  private readonly stopStatus: () => void;
  private readonly duckTimer: ReturnType<typeof setInterval>;
  /** When a voice last played (performance time). */
  private spokeAt = Number.NEGATIVE_INFINITY;
  private joined = false;
  private closed = false;

  constructor(
    private readonly connection: RoomConnection,
    private readonly sound: () => RoomSound | null,
  ) {
    this.stopVoice = connection.onVoice((event) => this.receive(event));
    // A new socket (a reconnect) knows nothing of this member talking: the next block says so again.
    this.stopStatus = connection.subscribe(() => {
      const joined = connection.getSnapshot().status === 'joined';
      if (joined === this.joined) return;
      this.joined = joined;
      if (this.snapshot.talking) this.update({ talking: false });
    });
    this.duckTimer = setInterval(() => this.applyDuck(), DUCK_CHECK_MS);
    document.addEventListener('pointerdown', this.resume, true);
    document.addEventListener('keydown', this.resume, true);
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): TVoiceSnapshot => this.snapshot;

  /** Push-to-talk pressed or released; the first press asks for the microphone. */
  push(pushing: boolean): void {
    if (pushing === this.snapshot.pushing) return;
    this.update({ pushing });
    if (pushing) void this.openMicrophone();
    else this.gate(false);
  }

  setOpenMic(openMic: boolean): void {
    this.update({ openMic });
    if (openMic) void this.openMicrophone();
    else if (!this.snapshot.pushing) this.gate(false);
  }

  setMutedForMe(memberId: string, muted: boolean): void {
    const others = this.snapshot.mutedForMe.filter((id) => id !== memberId);
    this.update({ mutedForMe: muted ? [...others, memberId] : others });
    this.playback?.setMutedForMe(memberId, muted);
  }

  setDuck(duck: boolean): void {
    globalThis.localStorage?.setItem(DUCK_KEY, String(duck));
    this.update({ duck });
    this.applyDuck();
  }

  /** Loudness of others' voices reaching the speakers now, RMS 0..1 (the controls' data-heard, for journeys). */
  heardLevel(): number {
    return this.playback?.level() ?? 0;
  }

  /** The owner's: mute a member for everyone, or let them talk again. */
  muteForEveryone(memberId: string, muted: boolean): void {
    this.connection.send({ type: 'voice/mute', memberId, muted });
  }

  /** The owner's: voice on or off for the whole room. */
  setEnabled(enabled: boolean): void {
    this.connection.send({ type: 'voice/enable', enabled });
  }

  close(): void {
    this.closed = true;
    this.gate(false);
    this.stopVoice();
    this.stopStatus();
    clearInterval(this.duckTimer);
    document.removeEventListener('pointerdown', this.resume, true);
    document.removeEventListener('keydown', this.resume, true);
    this.capture?.close();
    this.playback?.close();
    this.sound()?.duck(1);
    this.sound()?.setHeadroom(0);
    void this.audio?.close().catch(() => undefined);
  }

  private receive(event: TVoiceEvent): void {
    if (event instanceof ArrayBuffer) {
      const frame = decodeVoiceFrame(event);
      if (!frame || this.closed) return;
      const playback = this.voicePlayback();
      if (playback) playback.frame(frame);
      // Without the room's sound, the first voice heard builds the voice's own context; packets meanwhile are lost
      // (the jitter buffer waits anyway).
      else void this.audioContext();
      return;
    }
    const { type: _type, ...room } = event;
    this.update({ room });
    if (this.snapshot.talking && !this.mayTalk()) this.update({ talking: false });
  }

  /**
   * Where others' voices play: in the room's sound's context when the room has sound (one audio thread and output
   * on the page; a second context beside it made the room's sound run dry more often on a busy machine), else in
   * the voice's own. Built again when that context changes (the room's sound started, or started over).
   */
  private voicePlayback(): VoicePlayback | null {
    const context = this.sound()?.playingContext() ?? this.audio;
    if (!context) return null;
    if (this.playback?.context !== context) {
      this.playback?.close();
      this.playback = new VoicePlayback(context);
      for (const id of this.snapshot.mutedForMe) this.playback.setMutedForMe(id, true);
    }
    return this.playback;
  }

  /** The voice's own AudioContext (the microphone's, and the voices' without room sound), with the sound worklet. */
  private audioContext(): Promise<AudioContext> {
    this.context ??= (async () => {
      const context = new AudioContext({ latencyHint: 'interactive', sampleRate: OPUS_SAMPLE_RATE });
      await context.audioWorklet.addModule(workletUrl);
      if (this.closed) void context.close().catch(() => undefined);
      else this.audio = context;
      return context;
    })();
    return this.context;
  }

  private async openMicrophone(): Promise<void> {
    if (this.capture || this.snapshot.mic === 'asking') return;
    this.update({ mic: 'asking' });
    try {
      const context = await this.audioContext();
      // Inside the press's gesture: a context made before without one starts now.
      void context.resume();
      const capture = new VoiceCapture(context, {
        admit: (level) => this.admit(level),
        packet: (data, capturedAt) => this.packet(data, capturedAt),
        failed: () => this.update({ mic: 'unsupported', talking: false }),
      });
      this.capture = capture;
      await capture.start();
      if (this.closed) return capture.close();
      this.update({ mic: 'on' });
    } catch (error) {
      this.capture?.close();
      this.capture = null;
      const denied = error instanceof DOMException && error.name === 'NotAllowedError';
      this.update({ mic: denied ? 'denied' : 'unsupported', pushing: false, openMic: false });
    }
  }

  /** A captured block: whether it goes out, which opens or closes this member's talking. */
  private admit(level: number): boolean {
    const now = performance.now();
    if (level >= OPEN_MIC_LEVEL) this.loudAt = now;
    const open =
      this.mayTalk() &&
      this.joined &&
      (this.snapshot.pushing || (this.snapshot.openMic && now - this.loudAt <= OPEN_MIC_HOLD_MS));
    this.gate(open);
    return open;
  }

  private gate(open: boolean): void {
    if (open === this.snapshot.talking) return;
    this.connection.send({ type: 'voice/talk', talking: open });
    this.update({ talking: open });
  }

  private packet(data: Uint8Array, capturedAt: number): void {
    if (!this.snapshot.talking) return;
    this.connection.send(encodeVoiceFrame({ sequence: this.sequence++, timestamp: capturedAt, data }));
  }

  private mayTalk(): boolean {
    const { room } = this.snapshot;
    const you = this.connection.getSnapshot().you;
    return room.enabled && (you === null || !room.muted.includes(you));
  }

  private applyDuck(): void {
    const speaking = this.playback?.speaking() ?? false;
    const sound = this.sound();
    sound?.duck(this.snapshot.duck && speaking ? DUCK_LEVEL : 1);
    // Voices decoded and played beside the room's sound make its packets reach the audio thread less evenly: it
    // keeps more queued while anyone talks, and a while after (a conversation's pauses are short), so that it
    // does not run dry under them.
    const now = performance.now();
    if (speaking) this.spokeAt = now;
    sound?.setHeadroom(now - this.spokeAt < HEADROOM_HOLD_MS ? VOICE_HEADROOM_MS : 0);
  }

  /**
   * Any press on the page lets the voice's own context start (the autoplay rule); and the room sound's, when voices
   * wait in it to be heard (the room's sound otherwise waits for its own click to unmute).
   */
  private readonly resume = (): void => {
    if (this.audio?.state === 'suspended') void this.audio.resume();
    const shared = this.playback?.context;
    if (shared?.state === 'suspended' && this.playback?.speaking()) void shared.resume();
  };

  private update(patch: Partial<TVoiceSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...patch };
    for (const listener of this.listeners) listener();
  }
}
