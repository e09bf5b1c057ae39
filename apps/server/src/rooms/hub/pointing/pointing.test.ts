// Pointing and reactions as members see them, through a real hub on a LocalRoomSession with peers that record
// what a socket would have carried.
import { REACTIONS_TOO_FAST, type TServerMessage, type TServerMessageOf } from '@rooms/api/room-protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalRoomSession } from '../../../testing/rooms/local-room-session';
import { type HubPeer, RoomHub } from '../room-hub';

class RecordingPeer implements HubPeer {
  readonly messages: TServerMessage[] = [];
  bufferedAmount = 0;
  closedWith: number | undefined;

  send(message: TServerMessage): void {
    if (this.closedWith === undefined) this.messages.push(message);
  }

  sendFrame(_frame: Uint8Array, written: () => void): void {
    written();
  }

  close(code: number): void {
    this.closedWith = code;
  }

  of<K extends TServerMessage['type']>(type: K): TServerMessageOf<K>[] {
    return this.messages.filter((message): message is TServerMessageOf<K> => message.type === type);
  }
}

const sessions: LocalRoomSession[] = [];
afterEach(() => {
  for (const session of sessions.splice(0)) session.stop();
});

function setup() {
  const clock = { now: 0 };
  const session = new LocalRoomSession('room-1', { fps: 5 });
  sessions.push(session);
  const hub = new RoomHub({
    room: {
      id: 'room-1',
      ownerId: 'owner-user',
      ownerName: 'Olga',
      maxConnections: 6,
      password: null,
      isPublic: false,
      maxFrameRate: 30,
    },
    session,
    participantsChanged: () => {},
    now: () => clock.now,
    statsIntervalMs: 0,
  });
  function enter(identity: { userId: string | null; guestId?: string }, nickname: string) {
    const peer = new RecordingPeer();
    const result = hub.join(peer, identity, nickname);
    if (!result.ok) throw new Error(`${nickname} could not join: ${result.code}`);
    return { peer, id: result.memberId };
  }
  // The owner takes the empty seat of control on joining: the guests watch.
  const owner = enter({ userId: 'owner-user' }, 'Olga');
  const ada = enter({ userId: null, guestId: 'browser-ada' }, 'Ada');
  const bob = enter({ userId: null, guestId: 'browser-bob' }, 'Bob');
  return { hub, session, clock, enter, owner, ada, bob };
}

describe('pointing', () => {
  it("shows a watcher's pointer to everyone else, labelled, and not back to the watcher", () => {
    const { hub, session, owner, ada, bob } = setup();
    hub.handle(ada.id, { type: 'pointer/move', x: 0.25, y: 0.75 });
    const shown = { type: 'pointer/shown', memberId: ada.id, nickname: 'Ada', x: 0.25, y: 0.75 };
    expect(owner.peer.of('pointer/shown')).toEqual([shown]);
    expect(bob.peer.of('pointer/shown')).toEqual([shown]);
    expect(ada.peer.of('pointer/shown')).toEqual([]);
    // A ghost never reaches the room's browser, and pointing needs no control.
    expect(session.inputs).toEqual([]);
    expect(ada.peer.of('system/error')).toEqual([]);
  });

  it("shows no ghost of the driver's pointer: their mouse drives", () => {
    const { hub, owner, ada } = setup();
    hub.handle(owner.id, { type: 'pointer/move', x: 0.5, y: 0.5 });
    expect(ada.peer.of('pointer/shown')).toEqual([]);
    expect(owner.peer.of('system/error')).toEqual([]);
  });

  it('passes on at most 20 moves a second per person, dropping the rest without a word', () => {
    const { hub, clock, enter, owner, ada } = setup();
    for (let i = 0; i < 50; i++) hub.handle(ada.id, { type: 'pointer/move', x: i / 100, y: 0 });
    expect(owner.peer.of('pointer/shown')).toHaveLength(20);
    expect(ada.peer.of('system/error')).toEqual([]);
    // A second tab of the same browser shares the allowance.
    const adaAgain = enter({ userId: null, guestId: 'browser-ada' }, 'Ada');
    hub.handle(adaAgain.id, { type: 'pointer/move', x: 0.9, y: 0.9 });
    expect(owner.peer.of('pointer/shown')).toHaveLength(20);
    clock.now += 1000;
    hub.handle(adaAgain.id, { type: 'pointer/move', x: 0.9, y: 0.9 });
    expect(owner.peer.of('pointer/shown').at(-1)).toMatchObject({ memberId: adaAgain.id, x: 0.9 });
  });

  it('ignores moves of someone who is no longer a member', () => {
    const { hub, owner, ada } = setup();
    hub.handle(owner.id, { type: 'member/kick', memberId: ada.id });
    hub.handle(ada.id, { type: 'pointer/move', x: 0.5, y: 0.5 });
    hub.handle(ada.id, { type: 'reaction/send', emoji: '👍' });
    hub.handle('nobody', { type: 'pointer/move', x: 0.5, y: 0.5 });
    expect(owner.peer.of('pointer/shown')).toEqual([]);
    expect(owner.peer.of('reaction/shown')).toEqual([]);
  });
});

describe('reactions', () => {
  it('float for everyone else, from the driver too', () => {
    const { hub, owner, ada, bob } = setup();
    hub.handle(owner.id, { type: 'reaction/send', emoji: '🎉' });
    const shown = { type: 'reaction/shown', memberId: owner.id, nickname: 'Olga', emoji: '🎉' };
    expect(ada.peer.of('reaction/shown')).toEqual([shown]);
    expect(bob.peer.of('reaction/shown')).toEqual([shown]);
    expect(owner.peer.of('reaction/shown')).toEqual([]);
  });

  it('are limited to 5 in 5 seconds per person, with one clear refusal per burst', () => {
    const { hub, clock, owner, ada } = setup();
    for (let i = 0; i < 8; i++) hub.handle(ada.id, { type: 'reaction/send', emoji: '👍' });
    expect(owner.peer.of('reaction/shown')).toHaveLength(5);
    expect(ada.peer.of('system/error')).toEqual([
      { type: 'system/error', code: 'RATE_LIMITED', about: 'reaction/send', message: REACTIONS_TOO_FAST },
    ]);
    // Someone else is not held back by it.
    hub.handle(owner.id, { type: 'reaction/send', emoji: '👏' });
    expect(ada.peer.of('reaction/shown')).toHaveLength(1);
    clock.now += 5000;
    for (let i = 0; i < 6; i++) hub.handle(ada.id, { type: 'reaction/send', emoji: '😂' });
    expect(owner.peer.of('reaction/shown')).toHaveLength(10);
    // A new burst after one got through is told again, once.
    expect(ada.peer.of('system/error')).toHaveLength(2);
  });
});
