// The hub's rules as members see them, on a LocalRoomSession (a real timer-driven picture) with peers that
// record what a socket would have carried.
import { decodeMediaFrame, type TServerMessage, type TServerMessageOf } from '@rooms/api/room-protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalRoomSession, readLocalPicture } from '../../testing/rooms/local-room-session';
import type { TBanMarks, TRelayRoom, TRemoval } from '../../ws/relay-ports';
import { type HubPeer, RoomHub, type TRoomHubOptions } from './room-hub';

class RecordingPeer implements HubPeer {
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

const sessions: LocalRoomSession[] = [];
afterEach(() => {
  for (const session of sessions.splice(0)) session.stop();
});

function setup(
  room: Partial<TRelayRoom> = {},
  now = () => Date.now(),
  bans?: TRoomHubOptions['bans'],
  chat?: TRoomHubOptions['chat'],
  removals?: TRoomHubOptions['removals'],
) {
  const session = new LocalRoomSession('room-1', { fps: 50 });
  sessions.push(session);
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

describe('joining', () => {
  it('tells the joiner everything it needs before the first frame, and the others who came', () => {
    const { join, counts } = setup();
    const owner = join('owner-user', 'Olga');
    const guest = join(null, 'Gus');
    expect(guest.peer.messages.map((message) => message.type)).toEqual([
      'member/list',
      'control/state',
      'chat/history',
      'browser/tabs',
      'stream/config',
    ]);
    expect(guest.peer.last('member/list')).toMatchObject({
      you: guest.id,
      members: [
        { nickname: 'Olga', isOwner: true, isGuest: false },
        { nickname: 'Gus', isOwner: false, isGuest: true },
      ],
    });
    expect(guest.peer.last('control/state')).toEqual({
      type: 'control/state',
      controllerId: owner.id,
      queue: [],
    });
    expect(guest.peer.last('stream/config')).toEqual({
      type: 'stream/config',
      viewport: { width: 1280, height: 720 },
      codec: 'jpeg',
      audio: null,
      fps: 30,
      bitrateKbps: null,
      layers: [],
    });
    // The newest picture at once, without waiting for the page to change.
    expect(guest.peer.frames).toHaveLength(1);
    expect(decodeMediaFrame(guest.peer.frames[0]!)).toMatchObject({
      codec: 'jpeg',
      keyframe: true,
      width: 1280,
    });
    expect(owner.peer.last('member/joined')?.member.nickname).toBe('Gus');
    expect(counts).toEqual([1, 2]);
  });

  it("refuses the extra participant with 'This room is full', keeping the absent owner's seat", () => {
    const { join } = setup({ maxConnections: 3 });
    expect(join(null).result.ok).toBe(true);
    expect(join(null).result.ok).toBe(true);
    expect(join(null).result).toEqual({ ok: false, code: 'ROOM_FULL' });
    expect(join('owner-user').result.ok).toBe(true);
    expect(join('owner-user').result).toEqual({ ok: false, code: 'ROOM_FULL' });
  });

  it('tells everyone who left, and hands control on', () => {
    const { hub, join, counts } = setup();
    const owner = join('owner-user');
    const guest = join(null);
    hub.leave(owner.id);
    expect(guest.peer.last('member/left')).toEqual({
      type: 'member/left',
      memberId: owner.id,
      reason: 'left',
    });
    expect(guest.peer.last('control/state')?.controllerId).toBeNull();
    expect(counts.at(-1)).toBe(1);
  });
});

describe('kicking', () => {
  it('lets the owner remove a member, who is told and disconnected and may not come back', () => {
    const { hub, join } = setup();
    const owner = join('owner-user');
    const user = join('other-user');
    const guest = join(null);
    hub.handle(owner.id, { type: 'member/kick', memberId: user.id });
    expect(user.peer.last('member/kicked')).toEqual({ type: 'member/kicked' });
    expect(user.peer.closedWith).toBe(4001);
    expect(guest.peer.last('member/left')).toEqual({
      type: 'member/left',
      memberId: user.id,
      reason: 'kicked',
    });
    expect(join('other-user').result).toEqual({ ok: false, code: 'KICKED' });
  });

  it('refuses kicks by others and of the owner', () => {
    const { hub, join } = setup();
    const owner = join('owner-user');
    const guest = join(null);
    hub.handle(guest.id, { type: 'member/kick', memberId: owner.id });
    hub.handle(owner.id, { type: 'member/kick', memberId: owner.id });
    hub.handle(owner.id, { type: 'member/kick', memberId: 'nobody' });
    expect(guest.peer.errors()).toEqual(['NOT_OWNER']);
    expect(owner.peer.errors()).toEqual(['CANNOT_KICK_OWNER', 'NOT_A_MEMBER']);
    expect(hub.size).toBe(2);
  });
});

describe('removing', () => {
  it('keeps a removed guest out by its browser, in every tab and with a new name, until the owner lets them back in', () => {
    const { hub, enter } = setup({ maxConnections: 10 });
    const owner = enter({ userId: 'owner-user', guestId: 'owner-browser' }, 'Olga');
    const ownerPhone = enter({ userId: 'owner-user', guestId: 'owner-phone' }, 'Olga');
    expect(owner.peer.last('member/removals')).toEqual({ type: 'member/removals', removed: [] });
    const gus = enter({ userId: null, guestId: 'browser-1' }, 'Gus');
    const gusTab = enter({ userId: null, guestId: 'browser-1' }, 'Gus');
    const other = enter({ userId: null, guestId: 'browser-2' }, 'Vera');
    // Only the owner's seats are told who was removed.
    expect(gus.peer.of('member/removals')).toEqual([]);

    hub.handle(owner.id, { type: 'member/kick', memberId: gus.id });
    expect([gus.peer.closedWith, gusTab.peer.closedWith, other.peer.closedWith]).toEqual([
      4001,
      4001,
      undefined,
    ]);
    for (const seat of [owner, ownerPhone]) {
      expect(seat.peer.last('member/removals')).toEqual({
        type: 'member/removals',
        removed: [{ id: expect.any(String), nickname: 'Gus', isGuest: true, removedAt: expect.any(Number) }],
      });
    }
    expect(other.peer.of('member/removals')).toEqual([]);
    // Reopening the link in that browser (a new ticket, another tab, another name, or signed in there): still out.
    expect(enter({ userId: null, guestId: 'browser-1' }, 'Not Gus').result).toEqual({
      ok: false,
      code: 'KICKED',
    });
    expect(enter({ userId: 'gus-account', guestId: 'browser-1' }, 'Gus').result).toEqual({
      ok: false,
      code: 'KICKED',
    });
    expect(hub.keptOut({ userId: null, guestId: 'browser-1' })).toBe('KICKED');
    // Another browser is another person: a removal never goes by address.
    expect(enter({ userId: null, guestId: 'browser-3', ip: '10.0.0.2' }, 'Ida').result.ok).toBe(true);

    // Only the owner lets people back in; then the guest's browser may come back.
    const removalId = owner.peer.last('member/removals')!.removed[0]!.id;
    hub.handle(other.id, { type: 'member/readmit', removalId });
    expect(other.peer.errors()).toEqual(['NOT_OWNER']);
    hub.handle(ownerPhone.id, { type: 'member/readmit', removalId });
    for (const seat of [owner, ownerPhone]) {
      expect(seat.peer.last('member/removals')).toEqual({ type: 'member/removals', removed: [] });
    }
    expect(enter({ userId: null, guestId: 'browser-1' }, 'Gus').result.ok).toBe(true);
  });

  it('removes an account from every device it sits on, and keeps those browsers out after signing out', () => {
    const { hub, enter } = setup({ maxConnections: 10 });
    const owner = enter({ userId: 'owner-user', guestId: 'owner-browser' }, 'Olga');
    const laptop = enter({ userId: 'sam', guestId: 'browser-3' }, 'Sam');
    const phone = enter({ userId: 'sam', guestId: 'browser-4' }, 'Sam');
    hub.handle(owner.id, { type: 'member/kick', memberId: phone.id });
    expect([laptop.peer.closedWith, phone.peer.closedWith]).toEqual([4001, 4001]);
    expect(owner.peer.last('member/removals')?.removed).toEqual([
      expect.objectContaining({ nickname: 'Sam', isGuest: false }),
    ]);
    expect(enter({ userId: 'sam', guestId: 'browser-9' }, 'Sam').result).toEqual({
      ok: false,
      code: 'KICKED',
    });
    expect(enter({ userId: null, guestId: 'browser-4' }, 'Sam').result).toEqual({
      ok: false,
      code: 'KICKED',
    });
    // The owner is never kept out, whatever browser they use.
    expect(enter({ userId: 'owner-user', guestId: 'browser-3' }, 'Olga').result.ok).toBe(true);
  });

  it('stores removals and their lifting for the other servers, and starts with those in force', async () => {
    const stored: TRemoval[] = [];
    const lifted: string[] = [];
    const earlier: TRemoval = {
      id: 'removal-0',
      nickname: 'Ann',
      userId: null,
      guestIds: ['browser-0'],
      at: 1,
    };
    const { hub, enter } = setup({}, undefined, undefined, undefined, {
      inForce: [earlier],
      async record(removal) {
        stored.push(removal);
      },
      async lift(removalId) {
        lifted.push(removalId);
      },
    });
    expect(enter({ userId: null, guestId: 'browser-0' }, 'Ann').result).toEqual({
      ok: false,
      code: 'KICKED',
    });
    const owner = enter({ userId: 'owner-user' }, 'Olga');
    expect(owner.peer.last('member/removals')?.removed).toEqual([
      { id: 'removal-0', nickname: 'Ann', isGuest: true, removedAt: 1 },
    ]);
    const gus = enter({ userId: null, guestId: 'browser-1' }, 'Gus');
    hub.handle(owner.id, { type: 'member/kick', memberId: gus.id });
    expect(stored).toEqual([
      {
        id: expect.any(String),
        nickname: 'Gus',
        userId: null,
        guestIds: ['browser-1'],
        at: expect.any(Number),
      },
    ]);
    hub.handle(owner.id, { type: 'member/readmit', removalId: 'removal-0' });
    expect(lifted).toEqual(['removal-0']);
    expect(enter({ userId: null, guestId: 'browser-0' }, 'Ann').result.ok).toBe(true);
  });
});

describe('people', () => {
  it('shows the seats of one account, or of one guest browser, as one person, and counts people', () => {
    const { hub, enter } = setup({ maxConnections: 10 });
    const laptop = enter({ userId: 'owner-user', guestId: 'owner-browser' }, 'Olga');
    const phone = enter({ userId: 'owner-user', guestId: 'owner-phone' }, 'Olga');
    const alice = enter({ userId: 'alice', guestId: 'browser-1' }, 'Alice');
    const aliceTab = enter({ userId: 'alice', guestId: 'browser-1' }, 'Alice');
    const gus = enter({ userId: null, guestId: 'browser-2' }, 'Gus');
    const vera = enter({ userId: null, guestId: 'browser-3' }, 'Vera');
    const members = vera.peer.last('member/list')!.members;
    const personOf = (seat: { id: string }) => members.find((member) => member.id === seat.id)?.personId;
    expect(personOf(laptop)).toBe(personOf(phone));
    expect(personOf(alice)).toBe(personOf(aliceTab));
    expect(new Set([laptop, alice, gus, vera].map(personOf)).size).toBe(4);
    // Neither the account nor the browser is shown to the others.
    expect(JSON.stringify(members)).not.toMatch(/alice|owner-user|browser-/);
    expect(hub.size).toBe(6);
    expect(hub.peopleCount).toBe(4);
    // The owner's other device is the owner: never removable.
    hub.handle(laptop.id, { type: 'member/kick', memberId: phone.id });
    expect(laptop.peer.errors()).toEqual(['CANNOT_KICK_OWNER']);
  });
});

describe('banning', () => {
  it('keeps a banned guest out by its browser and its address, and never an account by an address', () => {
    const { hub } = setup();
    const enter = (identity: { userId: string | null; guestId?: string; ip?: string }, nickname: string) => {
      const peer = new RecordingPeer();
      const result = hub.join(peer, identity, nickname);
      return { peer, result, id: result.ok ? result.memberId : '' };
    };
    const owner = enter({ userId: 'owner-user', ip: '10.0.0.1' }, 'Olga');
    const guest = enter({ userId: null, guestId: 'browser-1', ip: '10.0.0.2' }, 'Gus');
    enter({ userId: null, guestId: 'browser-2', ip: '10.0.0.3' }, 'Other guest');

    hub.handle(guest.id, { type: 'member/ban', memberId: owner.id });
    expect(guest.peer.errors()).toEqual(['NOT_OWNER']);
    hub.handle(owner.id, { type: 'member/ban', memberId: guest.id });
    expect(guest.peer.errors()).toEqual(['NOT_OWNER', 'BANNED']);
    expect(guest.peer.closedWith).toBe(4002);

    expect(enter({ userId: null, guestId: 'browser-1', ip: '10.0.0.9' }, 'Not Gus').result).toEqual({
      ok: false,
      code: 'BANNED',
    });
    expect(enter({ userId: null, guestId: 'browser-9', ip: '10.0.0.2' }, 'Gus again').result).toEqual({
      ok: false,
      code: 'BANNED',
    });
    const sam = enter({ userId: 'someone', ip: '10.0.0.2' }, 'Sam');
    expect(sam.result.ok).toBe(true);
    expect(hub.size).toBe(3);

    // A banned account is told so when it comes back, from any address.
    hub.handle(owner.id, { type: 'member/ban', memberId: sam.id });
    expect(sam.peer.closedWith).toBe(4002);
    expect(enter({ userId: 'someone', ip: '10.0.0.7' }, 'Sam').result).toEqual({ ok: false, code: 'BANNED' });
    expect(hub.isBanned({ userId: 'someone' })).toBe(true);
  });

  it('stores every seat of a ban for the other servers, and starts with the bans already in force', async () => {
    const stored: TBanMarks[][] = [];
    const { hub } = setup({}, undefined, {
      inForce: [{ userId: null, guestId: 'browser-0', ip: '10.0.0.5' }],
      async record(marks) {
        stored.push([...marks]);
      },
    });
    const enter = (identity: { userId: string | null; guestId?: string; ip?: string }, nickname: string) => {
      const peer = new RecordingPeer();
      const result = hub.join(peer, identity, nickname);
      return { peer, result, id: result.ok ? result.memberId : '' };
    };
    // Banned before this hub was made (the room ran on another server): out by browser and by address.
    expect(enter({ userId: null, guestId: 'browser-0', ip: '10.0.0.6' }, 'Gus').result).toEqual({
      ok: false,
      code: 'BANNED',
    });
    expect(enter({ userId: null, guestId: 'browser-7', ip: '10.0.0.5' }, 'Gus').result).toEqual({
      ok: false,
      code: 'BANNED',
    });
    const owner = enter({ userId: 'owner-user', guestId: 'owner-browser', ip: '10.0.0.5' }, 'Olga');
    expect(owner.result.ok).toBe(true);

    const firstTab = enter({ userId: 'max', guestId: 'browser-1', ip: '10.0.0.2' }, 'Max');
    enter({ userId: null, guestId: 'browser-1', ip: '10.0.0.3' }, 'Max too');
    hub.handle(owner.id, { type: 'member/ban', memberId: firstTab.id });
    expect(hub.size).toBe(1);
    await Promise.resolve();
    expect(stored).toEqual([
      [
        { userId: 'max', guestId: 'browser-1', ip: '10.0.0.2' },
        { userId: null, guestId: 'browser-1', ip: '10.0.0.3' },
      ],
    ]);
  });

  it('keeps its bans when storing them fails', () => {
    const warnings: string[] = [];
    const session = new LocalRoomSession('room-2', { fps: 50 });
    sessions.push(session);
    const hub = new RoomHub({
      room: {
        id: 'room-2',
        ownerId: 'owner-user',
        ownerName: 'Olga',
        maxConnections: 4,
        password: null,
        isPublic: false,
        maxFrameRate: 30,
      },
      session,
      participantsChanged: () => {},
      statsIntervalMs: 0,
      log: { warn: (_object, message) => warnings.push(message) },
      bans: { record: () => Promise.reject(new Error('database down')) },
    });
    const owner = hub.join(new RecordingPeer(), { userId: 'owner-user' }, 'Olga');
    const guest = hub.join(new RecordingPeer(), { userId: null, guestId: 'browser-1' }, 'Gus');
    if (!owner.ok || !guest.ok) throw new Error('not joined');
    hub.handle(owner.memberId, { type: 'member/ban', memberId: guest.memberId });
    expect(hub.join(new RecordingPeer(), { userId: null, guestId: 'browser-1' }, 'Gus')).toEqual({
      ok: false,
      code: 'BANNED',
    });
    return expect.poll(() => warnings).toEqual(['room ban not stored for other servers']);
  });

  it('removes every seat of the banned person at once, and keeps the browser out after a login', () => {
    const { hub } = setup();
    const enter = (identity: { userId: string | null; guestId?: string; ip?: string }, nickname: string) => {
      const peer = new RecordingPeer();
      const result = hub.join(peer, identity, nickname);
      return { peer, result, id: result.ok ? result.memberId : '' };
    };
    const owner = enter({ userId: 'owner-user', guestId: 'owner-browser', ip: '10.0.0.1' }, 'Olga');
    const firstTab = enter({ userId: null, guestId: 'browser-1', ip: '10.0.0.2' }, 'Gus');
    const secondTab = enter({ userId: null, guestId: 'browser-1', ip: '10.0.0.2' }, 'Gus too');
    const other = enter({ userId: null, guestId: 'browser-2', ip: '10.0.0.3' }, 'Other guest');

    hub.handle(owner.id, { type: 'member/ban', memberId: firstTab.id });
    expect(firstTab.peer.closedWith).toBe(4002);
    expect(secondTab.peer.closedWith).toBe(4002);
    expect(other.peer.closedWith).toBeUndefined();
    expect(hub.size).toBe(2);
    // Signing in on the banned browser does not undo the ban; the owner is never banned.
    expect(enter({ userId: 'new-account', guestId: 'browser-1', ip: '10.0.0.8' }, 'Gus').result).toEqual({
      ok: false,
      code: 'BANNED',
    });
    expect(hub.isBanned({ userId: 'owner-user', guestId: 'browser-1', ip: '10.0.0.2' })).toBe(false);

    // A kicked account loses all its tabs too.
    const tabA = enter({ userId: 'sam', guestId: 'browser-3' }, 'Sam');
    const tabB = enter({ userId: 'sam', guestId: 'browser-4' }, 'Sam again');
    hub.handle(owner.id, { type: 'member/kick', memberId: tabA.id });
    expect([tabA.peer.closedWith, tabB.peer.closedWith]).toEqual([4001, 4001]);
    expect(hub.size).toBe(2);
  });
});

describe('nicknames', () => {
  it("keep the owner's names and a present person's name for them, and let the same person reuse its own", () => {
    const { hub } = setup({ maxConnections: 10 });
    const enter = (identity: { userId: string | null; guestId?: string }, nickname: string) =>
      hub.join(new RecordingPeer(), identity, nickname);
    // The owner's account name, before the owner is here; then the name the owner sits under.
    expect(enter({ userId: null, guestId: 'b1' }, 'ＯＬＧＡ')).toEqual({
      ok: false,
      code: 'NICKNAME_RESERVED',
    });
    expect(enter({ userId: 'owner-user' }, 'Boss').ok).toBe(true);
    expect(enter({ userId: 'sam' }, 'boss')).toEqual({ ok: false, code: 'NICKNAME_RESERVED' });
    expect(enter({ userId: 'owner-user' }, 'Olga').ok).toBe(true);

    expect(enter({ userId: null, guestId: 'b1' }, 'Gus').ok).toBe(true);
    expect(enter({ userId: null, guestId: 'b2' }, 'GUS')).toEqual({ ok: false, code: 'NICKNAME_TAKEN' });
    // A second tab, or a reconnect before the old socket is gone, is the same person.
    expect(enter({ userId: null, guestId: 'b1' }, 'Gus').ok).toBe(true);

    // Look-alikes of the owner's names are hers too, and her browser does not lend them to another account.
    expect(enter({ userId: 'owner-user', guestId: 'owners-browser' }, 'Chief').ok).toBe(true);
    expect(enter({ userId: null, guestId: 'b3' }, '\u0421hi ef')).toEqual({
      ok: false,
      code: 'NICKNAME_RESERVED',
    });
    expect(enter({ userId: 'sam', guestId: 'owners-browser' }, 'chief')).toEqual({
      ok: false,
      code: 'NICKNAME_RESERVED',
    });
    expect(enter({ userId: null, guestId: 'b3' }, 'O1ga')).toEqual({ ok: false, code: 'NICKNAME_RESERVED' });
  });
});

describe('driving the browser', () => {
  const click = { type: 'input/pointer', action: 'down', x: 0.5, y: 0.5, button: 'left' } as const;
  const pointer = { ...click, buttons: 1, clickCount: 1, modifiers: 0 };

  it("applies only the controller's input; the others are told, once a second", async () => {
    let now = 1_000_000;
    const { hub, session, join } = setup({}, () => now);
    const owner = join('owner-user');
    const guest = join(null);
    hub.handle(guest.id, pointer);
    hub.handle(guest.id, pointer);
    await settle();
    expect(session.inputs).toEqual([]);
    expect(guest.peer.errors()).toEqual(['NOT_CONTROLLER']);
    now += 1000;
    hub.handle(guest.id, { type: 'browser/navigate', url: 'https://example.com/' });
    expect(guest.peer.errors()).toEqual(['NOT_CONTROLLER', 'NOT_CONTROLLER']);

    hub.handle(owner.id, pointer);
    hub.handle(owner.id, { type: 'input/text', text: 'hi' });
    await settle();
    expect(session.inputs.map((input) => input.type)).toEqual(['input/pointer', 'input/text']);

    hub.handle(guest.id, { type: 'control/request' });
    hub.handle(owner.id, { type: 'control/grant', memberId: guest.id });
    hub.handle(guest.id, pointer);
    await settle();
    expect(session.inputs).toHaveLength(3);
    hub.handle(owner.id, { type: 'control/take' });
    hub.handle(guest.id, pointer);
    await settle();
    expect(session.inputs).toHaveLength(3);
  });

  it("runs the controller's browser controls in order and reports a failure to the sender only", async () => {
    const { hub, session, join } = setup();
    const owner = join('owner-user');
    const guest = join(null);
    hub.handle(owner.id, { type: 'browser/navigate', url: 'https://example.com/a' });
    hub.handle(owner.id, { type: 'browser/tab-open', url: 'https://example.com/b' });
    hub.handle(owner.id, { type: 'browser/navigate', url: 'file:///etc/passwd' });
    await settle();
    expect(session.tabs().map((tab) => tab.url)).toEqual(['https://example.com/a', 'https://example.com/b']);
    expect(guest.peer.last('browser/tabs')?.tabs).toHaveLength(2);
    expect(owner.peer.last('system/error')).toMatchObject({
      code: 'BROWSER_ACTION_FAILED',
      message: 'This address is not allowed',
      about: 'browser/navigate',
    });
    expect(guest.peer.errors()).toEqual([]);
  });

  it("answers the controller's find in the page to the controller alone, and refuses a watcher's", async () => {
    const { hub, join } = setup();
    const owner = join('owner-user');
    const guest = join(null);
    hub.handle(owner.id, { type: 'browser/navigate', url: 'https://example.com/press-me' });
    hub.handle(owner.id, { type: 'browser/find', text: 'PRESS', backwards: false });
    hub.handle(owner.id, { type: 'browser/find', text: 'absent', backwards: true });
    hub.handle(guest.id, { type: 'browser/find', text: 'press', backwards: false });
    await settle();
    expect(owner.peer.of('browser/found')).toEqual([
      { type: 'browser/found', text: 'PRESS', found: true },
      { type: 'browser/found', text: 'absent', found: false },
    ]);
    expect(guest.peer.of('browser/found')).toEqual([]);
    expect(guest.peer.errors()).toEqual(['NOT_CONTROLLER']);
  });

  it('shows every control change to everyone', () => {
    const { hub, join } = setup();
    const owner = join('owner-user');
    const ann = join('ann');
    const bob = join('bob');
    hub.handle(ann.id, { type: 'control/request' });
    hub.handle(bob.id, { type: 'control/request' });
    expect(owner.peer.last('control/state')).toMatchObject({
      controllerId: owner.id,
      queue: [ann.id, bob.id],
    });
    hub.handle(bob.id, { type: 'control/grant', memberId: bob.id });
    expect(bob.peer.errors()).toEqual(['CANNOT_GRANT']);
    hub.handle(owner.id, { type: 'control/release' });
    expect(bob.peer.last('control/state')).toMatchObject({ controllerId: ann.id, queue: [bob.id] });
  });
});

describe('chat', () => {
  it('delivers to everyone, the sender included', () => {
    const { hub, join } = setup();
    const owner = join('owner-user');
    const guest = join(null);
    hub.handle(guest.id, { type: 'chat/send', text: 'hello' });
    expect(owner.peer.last('chat/message')?.message).toMatchObject({ text: 'hello', memberId: guest.id });
    expect(guest.peer.last('chat/message')?.message.text).toBe('hello');
  });

  it('shows joiners the last 100 messages', () => {
    let now = 0;
    const { hub, join } = setup({}, () => now);
    const owner = join('owner-user', 'Olga');
    for (let i = 0; i < 105; i++) {
      now += 1000;
      hub.handle(owner.id, { type: 'chat/send', text: `message ${i}` });
    }
    const history = join(null, 'Late').peer.last('chat/history')?.messages ?? [];
    expect(history).toHaveLength(100);
    expect(history[0]).toMatchObject({ text: 'message 5', nickname: 'Olga', memberId: owner.id });
    expect(history.at(-1)?.text).toBe('message 104');
  });

  it("limits each member to 5 messages in 5 seconds: 'You are sending messages too fast'", () => {
    let now = 0;
    const { hub, join } = setup({}, () => now);
    const owner = join('owner-user');
    const guest = join(null);
    for (let i = 0; i < 6; i++) hub.handle(guest.id, { type: 'chat/send', text: `m${i}` });
    expect(guest.peer.last('system/error')).toMatchObject({
      code: 'RATE_LIMITED',
      message: 'You are sending messages too fast',
    });
    // Another member is not held back by it.
    hub.handle(owner.id, { type: 'chat/send', text: 'fine' });
    expect(owner.peer.errors()).toEqual([]);
    now += 5000;
    hub.handle(guest.id, { type: 'chat/send', text: 'later' });
    expect(owner.peer.of('chat/message').map((m) => m.message.text)).toEqual([
      'm0',
      'm1',
      'm2',
      'm3',
      'm4',
      'fine',
      'later',
    ]);
  });

  it('counts the limit per person: a second tab or coming back gives no fresh allowance', () => {
    let now = 0;
    const { hub, enter } = setup({}, () => now);
    enter({ userId: 'owner-user' }, 'Olga');
    const first = enter({ userId: null, guestId: 'browser-1' }, 'Gus');
    for (let i = 0; i < 3; i++) hub.handle(first.id, { type: 'chat/send', text: `m${i}` });
    const secondTab = enter({ userId: null, guestId: 'browser-1' }, 'Gus');
    for (let i = 3; i < 5; i++) hub.handle(secondTab.id, { type: 'chat/send', text: `m${i}` });
    hub.leave(first.id);
    hub.leave(secondTab.id);
    const back = enter({ userId: null, guestId: 'browser-1' }, 'Gus');
    hub.handle(back.id, { type: 'chat/send', text: 'one more' });
    expect(back.peer.errors()).toEqual(['RATE_LIMITED']);
    now += 5000;
    hub.handle(back.id, { type: 'chat/send', text: 'later' });
    expect(back.peer.last('chat/message')?.message.text).toBe('later');
  });

  it("starts with the room's earlier messages, and stores each new one", async () => {
    const stored: string[] = [];
    const earlier = [
      {
        id: 'earlier-1',
        memberId: '00000000-0000-4000-8000-000000000001',
        nickname: 'Olga',
        text: 'before the restart',
        at: 1,
        author: { userId: 'owner-user', guestId: null },
      },
    ];
    const { hub, enter } = setup({}, undefined, undefined, {
      earlier,
      store: {
        append: async (records) => void stored.push(...records.map((record) => record.text)),
        forget: async () => {},
      },
    });
    const owner = enter({ userId: 'owner-user' }, 'Olga');
    expect(owner.peer.last('chat/history')?.messages).toEqual([
      {
        id: 'earlier-1',
        memberId: earlier[0]!.memberId,
        nickname: 'Olga',
        text: 'before the restart',
        at: 1,
      },
    ]);
    hub.handle(owner.id, { type: 'chat/send', text: 'after it' });
    hub.handle(owner.id, { type: 'chat/send', text: 'and again' });
    await expect.poll(() => stored).toEqual(['after it', 'and again']);
    const late = enter({ userId: null, guestId: 'browser-1' }, 'Gus');
    expect(late.peer.last('chat/history')?.messages.map((message) => message.text)).toEqual([
      'before the restart',
      'after it',
      'and again',
    ]);
  });

  it("takes a banned person's messages away, from everyone's history and from the store", async () => {
    const forgotten: unknown[] = [];
    const { hub, enter } = setup({}, undefined, undefined, {
      store: { append: async () => {}, forget: async (authors) => void forgotten.push(authors) },
    });
    const owner = enter({ userId: 'owner-user' }, 'Olga');
    const spammer = enter({ userId: null, guestId: 'browser-1' }, 'Spam');
    const ann = enter({ userId: 'ann' }, 'Ann');
    hub.handle(spammer.id, { type: 'chat/send', text: 'buy now' });
    hub.handle(ann.id, { type: 'chat/send', text: 'hello' });
    hub.handle(spammer.id, { type: 'chat/send', text: 'buy more' });
    hub.handle(owner.id, { type: 'member/ban', memberId: spammer.id });
    expect(ann.peer.last('chat/history')?.messages.map((message) => message.text)).toEqual(['hello']);
    const late = enter({ userId: null, guestId: 'browser-2' }, 'Late');
    expect(late.peer.last('chat/history')?.messages.map((message) => message.text)).toEqual(['hello']);
    await expect.poll(() => forgotten).toEqual([[{ userId: null, guestId: 'browser-1' }]]);
    // A kick is not a ban: what a kicked person wrote stays.
    hub.handle(ann.id, { type: 'chat/send', text: 'still here' });
    hub.handle(owner.id, { type: 'member/kick', memberId: ann.id });
    expect(late.peer.last('chat/history')?.messages.map((message) => message.text)).toEqual(['hello']);
    expect(
      enter({ userId: null, guestId: 'browser-3' }, 'Later').peer.last('chat/history')?.messages,
    ).toHaveLength(2);
  });
});

describe('the picture', () => {
  it('subscribes once per room, and lets go when the last member leaves', () => {
    const { hub, session, join } = setup();
    expect(session.videoSubscribers).toBe(0);
    const a = join('owner-user');
    const b = join(null);
    expect(session.videoSubscribers).toBe(1);
    hub.leave(a.id);
    hub.leave(b.id);
    expect(session.videoSubscribers).toBe(0);
  });

  it('skips frames for a member that backs up, without holding back the others', async () => {
    const { join } = setup();
    const fast = join('owner-user');
    const slow = join(null);
    slow.peer.stalled = true;
    const atStall = slow.peer.frames.length;
    await waitFor(() => fast.peer.frames.length >= 12);
    // A socket that stopped reading is handed at most 3 frames while the others keep flowing.
    expect(slow.peer.frames.length - atStall).toBe(3);
    slow.peer.drain();
    const before = slow.peer.frames.length;
    await waitFor(() => slow.peer.frames.length >= before + 3);
    const pictures = slow.peer.frames.map((frame) => readLocalPicture(decodeMediaFrame(frame).data).seq);
    // It resumes with the newest picture, not the backlog.
    expect(pictures.at(-3)! - pictures.at(-4)!).toBeGreaterThan(1);
  });
});

function settle() {
  return new Promise((resolve) => setTimeout(resolve, 5));
}

async function waitFor(condition: () => boolean, timeoutMs = 3000) {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
