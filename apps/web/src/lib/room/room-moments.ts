// What the room tells a page that passes rather than stays: others' pointers and reactions, voice, files on their
// way in or out. Told to listeners as they come (up to 50 a second a speaker), never kept in the room's snapshot,
// so React renders none of it unless a component listens.
import type { TServerMessage, TServerMessageOf } from '@rooms/api/room-protocol';
import type { TFilesInEvent } from './file-sender';

/** Another member's pointer or reaction: a passing moment for the picture's overlay (pointing-layer.tsx). */
export type TPointingEvent = TServerMessageOf<'pointer/shown'> | TServerMessageOf<'reaction/shown'>;

/** What leaves the room for this page while it controls the room (files-out-prompt.tsx). */
export type TFilesOutEvent =
  | TServerMessageOf<'download/offered'>
  | TServerMessageOf<'download/refused'>
  | TServerMessageOf<'clipboard/copied'>;

/** The room's voice/state, or another member's voice frame (voice-session.ts). */
export type TVoiceEvent = TServerMessageOf<'voice/state'> | ArrayBuffer;

interface TMomentKinds {
  pointing: TPointingEvent;
  filesOut: TFilesOutEvent;
  filesIn: TFilesInEvent;
  voice: TVoiceEvent;
}
export type TMomentKind = keyof TMomentKinds;

/** Which server messages are moments, and of which kind. */
const KIND_OF: Partial<Record<TServerMessage['type'], TMomentKind>> = {
  'pointer/shown': 'pointing',
  'reaction/shown': 'pointing',
  'download/offered': 'filesOut',
  'download/refused': 'filesOut',
  'clipboard/copied': 'filesOut',
  'file/requested': 'filesIn',
  'file/accepted': 'filesIn',
  'file/progress': 'filesIn',
  'file/delivered': 'filesIn',
  'file/refused': 'filesIn',
  'voice/state': 'voice',
};

export class RoomMoments {
  private readonly listeners: { [K in TMomentKind]: Set<(event: TMomentKinds[K]) => void> } = {
    pointing: new Set(),
    filesOut: new Set(),
    filesIn: new Set(),
    voice: new Set(),
  };

  on<K extends TMomentKind>(kind: K, listener: (event: TMomentKinds[K]) => void): () => void {
    const listeners = this.listeners[kind] as Set<(event: TMomentKinds[K]) => void>;
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  tell<K extends TMomentKind>(kind: K, event: TMomentKinds[K]): void {
    for (const listener of this.listeners[kind] as Set<(event: TMomentKinds[K]) => void>) listener(event);
  }

  /** Tells a server message to its kind's listeners: true when it was a moment, false for the snapshot's. */
  pass(message: TServerMessage): boolean {
    const kind = KIND_OF[message.type];
    if (!kind) return false;
    // KIND_OF pairs each message type with the kind whose event union holds it.
    this.tell(kind, message as TMomentKinds[typeof kind]);
    return true;
  }
}
