// The member domain as members see it: the owner's kicks, removals (and letting people back in) and bans, and who
// is kept out after them.
import { afterEach, describe, expect, it } from 'vitest';
import {
  hubSessions,
  hubWithMembers,
  RecordingPeer,
  stopHubSessions,
} from '../../../testing/rooms/hub-members';
import { LocalRoomSession } from '../../../testing/rooms/local-room-session';
import type { TBanMarks, TRemoval } from '../../../ws/relay-ports';
import { RoomHub } from '../room-hub';

afterEach(stopHubSessions);

describe('kicking', () => {
  it('lets the owner remove a member, who is told and disconnected and may not come back', () => {
    const { hub, join } = hubWithMembers();
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
    const { hub, join } = hubWithMembers();
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
    const { hub, enter } = hubWithMembers({ maxConnections: 10 });
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
    const { hub, enter } = hubWithMembers({ maxConnections: 10 });
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
    const { hub, enter } = hubWithMembers({}, undefined, undefined, undefined, {
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

describe('banning', () => {
  it('keeps a banned guest out by its browser and its address, and never an account by an address', () => {
    const { hub } = hubWithMembers();
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
    const { hub } = hubWithMembers({}, undefined, {
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
    hubSessions.push(session);
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
    const { hub } = hubWithMembers();
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
