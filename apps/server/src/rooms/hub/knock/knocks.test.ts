// Knocking as the hub answers it: who is told of a knock, who may answer, and what the knocker hears.
import type { TRoomErrorCode } from '@rooms/api/room-protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { hubWithMembers, RecordingPeer, stopHubSessions } from '../../../testing/rooms/hub-members';
import type { RoomHub } from '../room-hub';

afterEach(stopHubSessions);

/** A knocker's socket: what it was told, and how the knock ended. */
function knockOn(
  hub: RoomHub,
  nickname: string,
  identity: { userId: string | null; guestId?: string } = { userId: null },
) {
  const peer = new RecordingPeer();
  const ended: { pass?: string; code?: TRoomErrorCode } = {};
  const result = hub.knock(peer, { ...identity, knock: true }, nickname, {
    admitted: (pass) => {
      ended.pass = pass;
    },
    refused: (code) => {
      ended.code = code;
    },
  });
  return { peer, result, ended };
}

describe('knocking', () => {
  it('tells the owner who knocks, lets the knocker in on admit with a pass, and clears the list', () => {
    const { hub, join } = hubWithMembers();
    const owner = join('owner-user', 'Olga');
    const guest = join(null, 'Gus');
    const knocker = knockOn(hub, 'Kim', { userId: null, guestId: 'browser-k' });
    expect(knocker.result.ok).toBe(true);
    expect(knocker.peer.last('knock/waiting')).toMatchObject({ type: 'knock/waiting' });
    const pending = owner.peer.last('knock/pending');
    expect(pending?.knocks).toMatchObject([{ nickname: 'Kim', isGuest: true }]);
    // Members the owner does not trust are never told who knocks.
    expect(guest.peer.of('knock/pending')).toEqual([]);

    hub.handle(owner.id, { type: 'knock/answer', knockId: pending!.knocks[0]!.id, admit: true });
    expect(knocker.ended).toEqual({ pass: expect.any(String) });
    expect(owner.peer.last('knock/pending')?.knocks).toEqual([]);
  });

  it("turns a knocker away on the owner's word, and refuses answers from members not trusted", () => {
    const { hub, join } = hubWithMembers();
    const owner = join('owner-user', 'Olga');
    const guest = join(null, 'Gus');
    const knocker = knockOn(hub, 'Kim');
    const knockId = owner.peer.last('knock/pending')!.knocks[0]!.id;

    hub.handle(guest.id, { type: 'knock/answer', knockId, admit: true });
    expect(guest.peer.errors()).toEqual(['NOT_OWNER']);
    expect(knocker.ended).toEqual({});

    hub.handle(owner.id, { type: 'knock/answer', knockId, admit: false });
    expect(knocker.ended).toEqual({ code: 'KNOCK_TURNED_AWAY' });
  });

  it('lets a member the owner trusts see and answer knocks, until the owner takes the trust back', () => {
    const { hub, join } = hubWithMembers();
    const owner = join('owner-user', 'Olga');
    const guest = join(null, 'Gus');
    hub.handle(guest.id, { type: 'knock/trust', memberId: owner.id, trusted: true });
    expect(guest.peer.errors()).toEqual(['NOT_OWNER']);

    hub.handle(owner.id, { type: 'knock/trust', memberId: guest.id, trusted: true });
    expect(guest.peer.last('knock/trusted')?.memberIds).toEqual([guest.id]);
    const knocker = knockOn(hub, 'Kim');
    const knockId = guest.peer.last('knock/pending')!.knocks[0]!.id;
    hub.handle(guest.id, { type: 'knock/answer', knockId, admit: true });
    expect(knocker.ended.pass).toEqual(expect.any(String));

    hub.handle(owner.id, { type: 'knock/trust', memberId: guest.id, trusted: false });
    expect(owner.peer.last('knock/trusted')?.memberIds).toEqual([]);
    knockOn(hub, 'Kit');
    expect(guest.peer.last('knock/pending')?.knocks).toEqual([]);
  });

  it("refuses a knock from someone removed or banned, under the owner's name, or beyond the room's queue", () => {
    const { hub, join, enter } = hubWithMembers();
    const owner = join('owner-user', 'Olga');
    const banned = enter({ userId: null, guestId: 'browser-b' }, 'Bo');
    hub.handle(owner.id, { type: 'member/ban', memberId: banned.id });
    expect(knockOn(hub, 'Bo again', { userId: null, guestId: 'browser-b' }).result).toEqual({
      ok: false,
      code: 'BANNED',
    });
    expect(knockOn(hub, 'Olga').result).toEqual({ ok: false, code: 'NICKNAME_RESERVED' });
    for (let i = 0; i < 20; i += 1) expect(knockOn(hub, `k${i}`).result.ok).toBe(true);
    expect(knockOn(hub, 'one too many').result).toEqual({ ok: false, code: 'TOO_MANY_KNOCKS' });
  });

  it('forgets a knock whose knocker left, and tells waiting knockers when the room goes away', () => {
    const { hub, join } = hubWithMembers();
    const owner = join('owner-user', 'Olga');
    const left = knockOn(hub, 'Lee');
    const waiting = knockOn(hub, 'Wu');
    if (left.result.ok) hub.cancelKnock(left.result.knockId);
    expect(owner.peer.last('knock/pending')?.knocks.map((knock) => knock.nickname)).toEqual(['Wu']);
    hub.close();
    expect(waiting.ended).toEqual({ code: 'ROOM_NOT_RUNNING' });
  });
});
