// Pointing and reactions against the real server (real PostgreSQL, real sockets, real tickets): only members of the
// room reach the others' screens, never someone before joining, removed or banned, and a flood reaches nobody
// beyond the limits. Each room's browser is a LocalRoomSession.
import { randomBytes } from 'node:crypto';
import {
  POINTER_RATE_LIMIT,
  POINTER_RATE_WINDOW_MS,
  REACTION_RATE_LIMIT,
  REACTION_RATE_WINDOW_MS,
  REACTIONS_TOO_FAST,
  ROOM_CLOSE_CODES,
} from '@rooms/api/room-protocol';
import { describe, expect, it } from 'vitest';
import type { RoomClient } from '../../../testing/room-client';
import { relayWithLocalRooms } from '../../../testing/rooms/relay-with-local-rooms';

const relay = relayWithLocalRooms('point');
const { createUser, createRoom, open, enter } = relay;

/** A room with its owner (in control, so watching nobody) and a watcher whose pointer marks "everything before". */
async function roomWithOwner() {
  const olga = await createUser('Olga');
  const roomId = await createRoom(olga.id);
  const owner = await enter(roomId, 'Olga', { token: olga.token });
  // Signed in: a ban of a guest at this test's address (every socket here comes from loopback) leaves it be.
  const marker = await enter(roomId, 'Marker', {
    token: (await createUser('Marker')).token,
    ip: '10.31.0.1',
  });
  /** Waits until the marker's move reached the owner: whatever was sent before it has arrived or never will. */
  const settle = async (x: number) => {
    marker.client.send({ type: 'pointer/move', x, y: 0 });
    await owner.client.next('pointer/shown', (shown) => shown.memberId === marker.id && shown.x === x);
  };
  return { roomId, owner, marker, settle };
}

/**
 * Waits until a chat message sent after everything else on this socket came back to it and reached the owner:
 * one socket keeps its order, so whatever the server made of the earlier messages has arrived by then.
 */
async function settleFrom(from: RoomClient, owner: RoomClient) {
  const text = `done ${randomBytes(4).toString('hex')}`;
  from.send({ type: 'chat/send', text });
  for (const client of [from, owner])
    await client.next('chat/message', (message) => message.message.text === text);
}

function shownFrom(client: RoomClient, memberId: string) {
  return {
    pointers: client.of('pointer/shown').filter((shown) => shown.memberId === memberId),
    reactions: client.of('reaction/shown').filter((shown) => shown.memberId === memberId),
  };
}

/** The most a limit lets through in `elapsed` ms: every window the burst touched, at most `limit` each. */
function allowance(limit: number, windowMs: number, elapsed: number): number {
  return limit * (Math.floor(elapsed / windowMs) + 1);
}

describe('pointing and reactions from a socket that has not joined', () => {
  it('are refused with "Please enter your nickname" and shown to nobody', async () => {
    const { roomId, owner, settle } = await roomWithOwner();
    const stranger = await open(roomId, { ip: '10.31.0.2' });
    stranger.send({ type: 'pointer/move', x: 0.5, y: 0.5 });
    stranger.send({ type: 'reaction/send', emoji: '👍' });
    await stranger.until(() => stranger.of('system/error').length === 2, 'two refusals');
    expect(stranger.of('system/error')).toEqual([
      {
        type: 'system/error',
        code: 'NOT_JOINED',
        about: 'pointer/move',
        message: 'Please enter your nickname',
      },
      {
        type: 'system/error',
        code: 'NOT_JOINED',
        about: 'reaction/send',
        message: 'Please enter your nickname',
      },
    ]);
    await settle(0.1);
    expect(owner.client.of('pointer/shown').map((shown) => shown.nickname)).toEqual(['Marker']);
    expect(owner.client.of('reaction/shown')).toEqual([]);
    stranger.close();
    owner.client.close();
  });
});

describe('a member the owner removes or bans', () => {
  for (const action of ['member/kick', 'member/ban'] as const) {
    it(`reaches nobody from the moment of the ${action}, in any of their tabs`, async () => {
      const { roomId, owner, settle } = await roomWithOwner();
      const max = await createUser('Max');
      const tab = await enter(roomId, 'Max', { token: max.token, ip: '10.31.1.1' });
      const otherTab = await enter(roomId, 'Max', { token: max.token, ip: '10.31.1.1' });
      // Both tabs keep pointing and reacting while the owner acts, so some of it crosses the removal.
      let sending = true;
      const keepSending = (client: RoomClient) => {
        const timer = setInterval(() => {
          if (!sending || client.closed) return clearInterval(timer);
          client.send({ type: 'pointer/move', x: Math.random(), y: Math.random() });
          client.send({ type: 'reaction/send', emoji: '🎉' });
        }, 5);
      };
      keepSending(tab.client);
      keepSending(otherTab.client);
      await owner.client.next('pointer/shown', (shown) => shown.nickname === 'Max');
      owner.client.send({ type: action, memberId: tab.id });
      const closeCode = action === 'member/ban' ? ROOM_CLOSE_CODES.BANNED : ROOM_CLOSE_CODES.KICKED;
      expect((await tab.client.closedWith()).code).toBe(closeCode);
      expect((await otherTab.client.closedWith()).code).toBe(closeCode);
      sending = false;
      await settle(0.2);
      // Nothing of Max's after the owner was told both seats left.
      const lefts = owner.client.messages.flatMap((message, index) =>
        message.type === 'member/left' && (message.memberId === tab.id || message.memberId === otherTab.id)
          ? [index]
          : [],
      );
      expect(lefts).toHaveLength(2);
      const afterRemoval = owner.client.messages
        .slice(Math.min(...lefts))
        .filter(
          (message) =>
            (message.type === 'pointer/shown' || message.type === 'reaction/shown') &&
            message.nickname === 'Max',
        );
      expect(afterRemoval).toEqual([]);

      // Coming back for another go is refused before any socket opens.
      const comeback = await relay.server.app.inject({
        method: 'POST',
        url: '/ws/ticket',
        remoteAddress: '10.31.1.1',
        headers: { authorization: max.token },
        payload: { roomId, password: 'sesame' },
      });
      expect(comeback.statusCode).toBe(403);
      owner.client.close();
    });
  }
});

describe('a flood of pointing and reactions', () => {
  it('reaches the others only within the limits, with one refusal per burst of reactions', async () => {
    const { roomId, owner } = await roomWithOwner();
    const flooder = await enter(roomId, 'Flo', { ip: '10.31.2.1' });
    const started = Date.now();
    for (let i = 0; i < 500; i++) flooder.client.send({ type: 'pointer/move', x: (i % 100) / 100, y: 0.5 });
    for (let i = 0; i < 100; i++) flooder.client.send({ type: 'reaction/send', emoji: '😂' });
    await settleFrom(flooder.client, owner.client);
    const elapsed = Date.now() - started;
    const { pointers, reactions } = shownFrom(owner.client, flooder.id);
    expect(pointers.length).toBeGreaterThanOrEqual(POINTER_RATE_LIMIT);
    expect(pointers.length).toBeLessThanOrEqual(
      allowance(POINTER_RATE_LIMIT, POINTER_RATE_WINDOW_MS, elapsed),
    );
    expect(reactions.length).toBeGreaterThanOrEqual(REACTION_RATE_LIMIT);
    expect(reactions.length).toBeLessThanOrEqual(
      allowance(REACTION_RATE_LIMIT, REACTION_RATE_WINDOW_MS, elapsed),
    );
    // The flooder hears of the reactions once per window that refused some, and never of the dropped moves.
    const refusals = flooder.client.of('system/error');
    expect(refusals.length).toBeGreaterThanOrEqual(1);
    expect(refusals.length).toBeLessThanOrEqual(Math.floor(elapsed / REACTION_RATE_WINDOW_MS) + 1);
    expect(refusals[0]).toEqual({
      type: 'system/error',
      code: 'RATE_LIMITED',
      about: 'reaction/send',
      message: REACTIONS_TOO_FAST,
    });
    expect(flooder.client.closed).toBeUndefined();
    flooder.client.close();
    owner.client.close();
  });

  it('of points outside the picture or emoji outside the set is refused, and a stream of them closes the socket', async () => {
    const { roomId, owner, settle } = await roomWithOwner();
    const bad = await enter(roomId, 'Bad', { ip: '10.31.3.1' });
    bad.client.send(JSON.stringify({ type: 'reaction/send', emoji: '<img src=x onerror=alert(1)>' }));
    for (let i = 0; i < 30; i++) bad.client.send({ type: 'pointer/move', x: 5, y: -1 });
    expect((await bad.client.closedWith()).code).toBe(ROOM_CLOSE_CODES.TOO_MANY_BAD_MESSAGES);
    expect(bad.client.of('system/error')[0]).toMatchObject({ code: 'BAD_MESSAGE', about: 'reaction/send' });
    await settle(0.4);
    expect(shownFrom(owner.client, bad.id)).toEqual({ pointers: [], reactions: [] });
    owner.client.close();
  });
});
