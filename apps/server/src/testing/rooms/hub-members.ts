// A RoomHub with members whose sockets are recorded (what each would have carried, JSON and frames), on a
// LocalRoomSession (a real timer-driven picture): for the hub's unit tests, domain by domain.
import type { TServerMessage, TServerMessageOf } from '@rooms/api/room-protocol';
import { type HubPeer, RoomHub, type TRoomHubOptions } from '../../rooms/hub/room-hub';
import type { TRelayRoom } from '../../ws/relay-ports';
import { LocalRoomSession } from './local-room-session';

export class RecordingPeer implements HubPeer {
  readonly messages: TServerMessage[] = [];
  readonly frames: Uint8Array[] = [];
  closedWith: number | undefined;
  bufferedAmount = 0;
  /** While stalled, frames are accepted but never written out (a client that stopped reading). */
  stalled = false;
  private readonly held: (() => void)[] = [];

  send(message: TServerMessage): void {
    if (this.closedWith === undefined) this.messages.push(message);
  }

  sendFrame(frame: Uint8Array, written: () => void): void {
    this.frames.push(frame);
    if (this.stalled) {
      this.bufferedAmount += frame.byteLength;
      this.held.push(written);
    } else written();
  }

  close(code: number): void {
    this.closedWith = code;
  }

  drain(): void {
    this.stalled = false;
    this.bufferedAmount = 0;
    for (const written of this.held.splice(0)) written();
  }

  of<K extends TServerMessage['type']>(type: K): TServerMessageOf<K>[] {
    return this.messages.filter((message): message is TServerMessageOf<K> => message.type === type);
  }

  last<K extends TServerMessage['type']>(type: K): TServerMessageOf<K> | undefined {
    return this.of(type).at(-1);
  }

  errors(): string[] {
    return this.of('system/error').map((error) => error.code);
  }
}

/** The sessions of the hubs made so far; a test that makes its own hub adds its session here. */
export const hubSessions: LocalRoomSession[] = [];

/** Stops the pictures of the hubs made so far (each test file's afterEach). */
export function stopHubSessions(): void {
  for (const session of hubSessions.splice(0)) session.stop();
}

/** A hub of room-1, owned by 'owner-user' (Olga); `join` and `enter` seat members. */
export function hubWithMembers(
  room: Partial<TRelayRoom> = {},
  now = () => Date.now(),
  bans?: TRoomHubOptions['bans'],
  chat?: TRoomHubOptions['chat'],
  removals?: TRoomHubOptions['removals'],
) {
  const session = new LocalRoomSession('room-1', { fps: 50 });
  hubSessions.push(session);
  const counts: number[] = [];
  const hub = new RoomHub({
    room: {
      id: 'room-1',
      ownerId: 'owner-user',
      ownerName: 'Olga',
      maxConnections: 4,
      password: null,
      isPublic: false,
      maxFrameRate: 30,
      ...room,
    },
    session,
    participantsChanged: (count) => counts.push(count),
    now,
    statsIntervalMs: 0,
    bans,
    chat,
    removals,
  });
  let guests = 0;
  // Two guests are two people, who may not share a nickname.
  function join(userId: string | null, nickname = userId ?? `guest ${++guests}`) {
    const peer = new RecordingPeer();
    const result = hub.join(peer, { userId }, nickname);
    return { peer, result, id: result.ok ? result.memberId : '' };
  }
  /** A seat of someone in particular (an account, a browser), where `join` makes a new person each time. */
  function enter(identity: { userId: string | null; guestId?: string; ip?: string }, nickname: string) {
    const peer = new RecordingPeer();
    const result = hub.join(peer, identity, nickname);
    return { peer, result, id: result.ok ? result.memberId : '' };
  }
  return { hub, session, counts, join, enter };
}
