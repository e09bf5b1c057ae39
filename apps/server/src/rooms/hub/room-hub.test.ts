// The hub's rules for joining, leaving and the shared picture, as members see them; each domain's own rules are
// tested beside its handler (member/, chat/, input/).
import { decodeMediaFrame } from '@rooms/api/room-protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { hubWithMembers, RecordingPeer, stopHubSessions } from '../../testing/rooms/hub-members';
import { readLocalPicture } from '../../testing/rooms/local-room-session';

afterEach(stopHubSessions);

describe('joining', () => {
  it('tells the joiner everything it needs before the first frame, and the others who came', () => {
    const { join, counts } = hubWithMembers();
    const owner = join('owner-user', 'Olga');
    const guest = join(null, 'Gus');
    expect(guest.peer.messages.map((message) => message.type)).toEqual([
      'member/list',
      'control/state',
      'chat/history',
      'browser/tabs',
      'voice/state',
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
    const { join } = hubWithMembers({ maxConnections: 3 });
    expect(join(null).result.ok).toBe(true);
    expect(join(null).result.ok).toBe(true);
    expect(join(null).result).toEqual({ ok: false, code: 'ROOM_FULL' });
    expect(join('owner-user').result.ok).toBe(true);
    expect(join('owner-user').result).toEqual({ ok: false, code: 'ROOM_FULL' });
  });

  it('tells everyone who left, and hands control on', () => {
    const { hub, join, counts } = hubWithMembers();
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

describe('people', () => {
  it('shows the seats of one account, or of one guest browser, as one person, and counts people', () => {
    const { hub, enter } = hubWithMembers({ maxConnections: 10 });
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

describe('nicknames', () => {
  it("keep the owner's names and a present person's name for them, and let the same person reuse its own", () => {
    const { hub } = hubWithMembers({ maxConnections: 10 });
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

describe('the picture', () => {
  it('subscribes once per room, and lets go when the last member leaves', () => {
    const { hub, session, join } = hubWithMembers();
    expect(session.videoSubscribers).toBe(0);
    const a = join('owner-user');
    const b = join(null);
    expect(session.videoSubscribers).toBe(1);
    hub.leave(a.id);
    hub.leave(b.id);
    expect(session.videoSubscribers).toBe(0);
  });

  it('skips frames for a member that backs up, without holding back the others', async () => {
    const { join } = hubWithMembers();
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

async function waitFor(condition: () => boolean, timeoutMs = 3000) {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
