// Voice in a room's hub: members talk to one another. A member says when they start and stop talking
// (voice/talk); between the two, each of their binary voice frames (packages/api/src/room-protocol/voice.ts) goes
// to every other member with the speaker's id written into it, one copy for all, and nothing of it is kept. The
// owner can mute a person for everyone (all their tabs, a rejoin included) and turn voice off for the room. Frames
// and starts are counted per person, so a second tab brings no fresh allowance. Frames beyond the limit, from a
// member who is not talking, who is muted, or while voice is off, are dropped without a word: the page knows from
// voice/state, which every member is sent at joining and on every change.
import {
  type TClientMessage,
  type TMember,
  type TServerMessageOf,
  VOICE_FRAME_RATE_LIMIT,
  VOICE_FRAME_RATE_WINDOW_MS,
  VOICE_TALK_RATE_LIMIT,
  VOICE_TALK_RATE_WINDOW_MS,
  writeVoiceSpeaker,
} from '@rooms/api/room-protocol';
import { SlidingWindow } from '../chat/chat-log';
import { errorMessage } from '../error-message';
import type { HubPeer } from '../hub-context';

/** What the hub knows of a joined member that voice needs. */
export interface TVoiceMember {
  info: TMember;
  peer: HubPeer;
}

/** A listener whose socket holds more than this is skipped: a late packet is worse than a lost one. */
export const VOICE_BACKLOG_BYTES = 256 * 1024;
/** Beyond this many people with a window, the idle windows are dropped (their count no longer matters). */
const SWEEP_ABOVE = 256;

/** One sliding window per person. */
class PersonWindows {
  private readonly windows = new Map<string, SlidingWindow>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  allow(person: string, now: number): boolean {
    if (this.windows.size > SWEEP_ABOVE) {
      for (const [key, window] of this.windows) if (window.idle(now)) this.windows.delete(key);
    }
    let window = this.windows.get(person);
    if (!window) {
      window = new SlidingWindow(this.limit, this.windowMs);
      this.windows.set(person, window);
    }
    return window.allow(now);
  }
}

export class RoomVoice {
  private enabled = true;
  /** Seats talking now (voice/talk), by member id. */
  private readonly talking = new Set<string>();
  /** People the owner muted for everyone, by person id (TMember.personId). */
  private readonly mutedPeople = new Set<string>();
  private readonly frames = new PersonWindows(VOICE_FRAME_RATE_LIMIT, VOICE_FRAME_RATE_WINDOW_MS);
  private readonly starts = new PersonWindows(VOICE_TALK_RATE_LIMIT, VOICE_TALK_RATE_WINDOW_MS);

  constructor(
    private readonly now: () => number,
    private readonly members: () => Iterable<TVoiceMember>,
    private readonly broadcast: (message: TServerMessageOf<'voice/state'>) => void,
  ) {}

  /** voice/talk of any member, voice/mute and voice/enable of the owner. */
  handle(from: TVoiceMember, message: TClientMessage): void {
    if (message.type === 'voice/talk') {
      if (!message.talking) {
        if (this.talking.delete(from.info.id)) this.changed();
        return;
      }
      if (this.talking.has(from.info.id) || !this.mayTalk(from)) return;
      if (!this.starts.allow(from.info.personId, this.now())) return;
      this.talking.add(from.info.id);
      this.changed();
    } else if (message.type === 'voice/mute' || message.type === 'voice/enable') {
      if (!from.info.isOwner) {
        from.peer.send(errorMessage('NOT_OWNER', message.type));
        return;
      }
      if (message.type === 'voice/enable') this.enable(message.enabled);
      else this.mute(from, message.memberId, message.muted);
    }
  }

  /**
   * One binary voice frame of a joined member: to every other member but the speaker's own other tabs, when the
   * speaker may talk now and within the limit. `frame` is the sender's; a copy carrying the speaker goes out.
   */
  frame(from: TVoiceMember, frame: Uint8Array): void {
    if (!this.talking.has(from.info.id) || !this.mayTalk(from)) return;
    if (!this.frames.allow(from.info.personId, this.now())) return;
    const out = Uint8Array.from(frame);
    writeVoiceSpeaker(out, from.info.id);
    for (const member of this.members()) {
      if (member.info.personId === from.info.personId) continue;
      if (member.peer.bufferedAmount > VOICE_BACKLOG_BYTES) continue;
      member.peer.sendFrame(out, noop);
    }
  }

  /** A seat joined (already among the members): told the state, and everyone when the owner muted its person. */
  joined(info: TMember, peer: HubPeer): void {
    if (this.mutedPeople.has(info.personId)) this.changed();
    else peer.send(this.state());
  }

  /** A seat left: it no longer talks. */
  left(memberId: string): void {
    if (this.talking.delete(memberId)) this.changed();
  }

  /** What a joiner is sent, and everyone on each change. */
  state(): TServerMessageOf<'voice/state'> {
    const muted: string[] = [];
    for (const member of this.members())
      if (this.mutedPeople.has(member.info.personId)) muted.push(member.info.id);
    return { type: 'voice/state', enabled: this.enabled, speaking: [...this.talking], muted };
  }

  private mayTalk(member: TVoiceMember): boolean {
    return this.enabled && !this.mutedPeople.has(member.info.personId);
  }

  private enable(enabled: boolean): void {
    if (enabled === this.enabled) return;
    this.enabled = enabled;
    if (!enabled) this.talking.clear();
    this.changed();
  }

  private mute(owner: TVoiceMember, memberId: string, muted: boolean): void {
    const target = [...this.members()].find((member) => member.info.id === memberId);
    if (!target) {
      owner.peer.send(errorMessage('NOT_A_MEMBER', 'voice/mute'));
      return;
    }
    // The owner is the one who mutes: never muted for everyone.
    if (target.info.isOwner) return;
    const person = target.info.personId;
    if (muted === this.mutedPeople.has(person)) return;
    if (muted) {
      this.mutedPeople.add(person);
      for (const member of this.members())
        if (member.info.personId === person) this.talking.delete(member.info.id);
    } else this.mutedPeople.delete(person);
    this.changed();
  }

  private changed(): void {
    this.broadcast(this.state());
  }
}

function noop(): void {}
