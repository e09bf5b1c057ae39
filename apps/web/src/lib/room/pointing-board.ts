// What the picture's overlay shows of the others' pointing: one ghost per member where they last pointed, gone
// POINTER_FADE_MS after their last move (or when they leave), and the reactions floating up, each for a moment.
// Plain TypeScript with the time passed in, so the overlay only draws what this says.
import {
  POINTER_FADE_MS,
  REACTION_RATE_LIMIT,
  REACTION_RATE_WINDOW_MS,
  type TReactionEmoji,
} from '@rooms/api/room-protocol';
import type { TPointingEvent } from './room-moments';

/** How long a reaction floats over the picture. */
export const REACTION_FLOAT_MS = 2500;
/** The last part of a ghost's life, when it fades out. */
export const GHOST_FADE_OUT_MS = 600;
/** Beyond this many reactions at once the oldest go: a room of people reacting must not bury the picture. */
const MAX_REACTIONS = 24;

export interface TGhost {
  memberId: string;
  nickname: string;
  x: number;
  y: number;
  /** When the last move came (performance.now()). */
  at: number;
}

export interface TFloatingReaction {
  id: number;
  emoji: TReactionEmoji;
  nickname: string;
  /** 0..1 across the picture, where it rises. */
  lane: number;
  at: number;
}

export class PointingBoard {
  private readonly ghostsById = new Map<string, TGhost>();
  private floating: TFloatingReaction[] = [];
  private nextId = 1;
  /** When this page's own last reactions went, counted as the room counts them. */
  private sent: number[] = [];

  constructor(private readonly random: () => number = Math.random) {}

  show(event: TPointingEvent, now: number): void {
    if (event.type === 'pointer/shown') {
      const { memberId, nickname, x, y } = event;
      this.ghostsById.set(memberId, { memberId, nickname, x, y, at: now });
    } else {
      this.react(event.emoji, event.nickname, now);
    }
  }

  /**
   * Whether one more reaction of this page's own is within the room's limit now, counting it if so: one beyond
   * would float here while the room refuses it to everyone else.
   */
  mayReact(now: number): boolean {
    this.sent = this.sent.filter((at) => now - at < REACTION_RATE_WINDOW_MS);
    if (this.sent.length >= REACTION_RATE_LIMIT) return false;
    this.sent.push(now);
    return true;
  }

  /** A reaction, also this member's own (the room sends it to the others only). */
  react(emoji: TReactionEmoji, nickname: string, now: number): void {
    // Lanes keep clear of the edges, where a reaction would be cut in half.
    const lane = 0.15 + this.random() * 0.7;
    this.floating = [...this.floating, { id: this.nextId++, emoji, nickname, lane, at: now }].slice(
      -MAX_REACTIONS,
    );
  }

  /** Ghosts still showing at `now`, each with how visible it is (1, then down to 0 over its last moment). */
  ghosts(now: number): (TGhost & { opacity: number })[] {
    const shown: (TGhost & { opacity: number })[] = [];
    for (const [id, ghost] of this.ghostsById) {
      const left = POINTER_FADE_MS - (now - ghost.at);
      if (left <= 0) {
        this.ghostsById.delete(id);
        continue;
      }
      shown.push({ ...ghost, opacity: Math.min(1, left / GHOST_FADE_OUT_MS) });
    }
    return shown;
  }

  reactions(now: number): TFloatingReaction[] {
    this.floating = this.floating.filter((reaction) => now - reaction.at < REACTION_FLOAT_MS);
    return this.floating;
  }

  /** Only members still in the room keep a ghost. */
  keepOnly(memberIds: ReadonlySet<string>): void {
    for (const id of this.ghostsById.keys()) if (!memberIds.has(id)) this.ghostsById.delete(id);
  }

  /** Whether anything is left to draw (the overlay stops its clock when not). */
  get empty(): boolean {
    return this.ghostsById.size === 0 && this.floating.length === 0;
  }
}
