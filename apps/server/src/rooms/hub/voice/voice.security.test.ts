// Voice against the real server (real PostgreSQL, real sockets, real tickets): a member's voice reaches the other
// members only, never from a socket before joining, from someone removed or banned, muted by the owner or while
// voice is off; a flood reaches nobody beyond the limit, and oversized or foreign binary is refused and, as a stream,
// ends the connection. Each room's browser is a LocalRoomSession.
import { randomBytes } from 'node:crypto';
import {
  encodeVoiceFrame,
  ROOM_CLOSE_CODES,
  VOICE_FRAME_RATE_LIMIT,
  VOICE_FRAME_RATE_WINDOW_MS,
  VOICE_PAYLOAD_MAX_BYTES,
} from '@rooms/api/room-protocol';
import { describe, expect, it } from 'vitest';
import type { RoomClient } from '../../../testing/room-client';
import { relayWithLocalRooms } from '../../../testing/rooms/relay-with-local-rooms';

const relay = relayWithLocalRooms('voice');
const { createUser, createRoom, open, enter } = relay;

/** One Opus-sized packet whose bytes say who sent it and which it was. */
function packet(tag: number, sequence: number, size = 80) {
  const data = new Uint8Array(size).fill(tag);
  return encodeVoiceFrame({ sequence, timestamp: sequence * 20, data });
}

/** The voice frames this client received from `memberId`. */
function heardFrom(client: RoomClient, memberId: string) {
  return client.voice.filter((frame) => frame.speaker === memberId);
}

/** A room with its owner and a speaker whose packets (tag 1) mark "everything before" for the owner. */
async function roomWithOwner() {
  const olga = await createUser('Olga');
  const roomId = await createRoom(olga.id);
  const owner = await enter(roomId, 'Olga', { token: olga.token });
  const marker = await enter(roomId, 'Marker', {
    token: (await createUser('Marker')).token,
    ip: '10.32.0.1',
  });
  marker.client.send({ type: 'voice/talk', talking: true });
  let sequence = 1_000_000;
  /** Waits until a marker packet reached the owner: whatever was sent before it has arrived or never will. */
  const settle = async () => {
    const mark = ++sequence;
    marker.client.sendBytes(packet(1, mark));
    await owner.client.until(
      () => heardFrom(owner.client, marker.id).some((frame) => frame.sequence === mark),
      'the marker packet',
    );
  };
  return { roomId, owner, marker, settle };
}

/** The most a limit lets through in `elapsed` ms: every window the burst touched, at most `limit` each. */
function allowance(limit: number, windowMs: number, elapsed: number): number {
  return limit * (Math.floor(elapsed / windowMs) + 1);
}

describe('voice from a socket that has not joined', () => {
  it('is refused with "Please enter your nickname", heard by nobody, and a stream of it ends the connection', async () => {
    const { roomId, owner, settle } = await roomWithOwner();
    const stranger = await open(roomId, { ip: '10.32.0.2' });
    stranger.send({ type: 'voice/talk', talking: true });
    await stranger.next('system/error');
    for (let i = 0; i < 25; i++) stranger.sendBytes(packet(9, i));
    expect((await stranger.closedWith()).code).toBe(ROOM_CLOSE_CODES.TOO_MANY_BAD_MESSAGES);
    expect(stranger.of('system/error')[0]).toEqual({
      type: 'system/error',
      code: 'NOT_JOINED',
      about: 'voice/talk',
      message: 'Please enter your nickname',
    });
    expect(stranger.of('system/error')[1]).toMatchObject({ code: 'NOT_JOINED', about: 'voice' });
    await settle();
    expect(owner.client.voice.filter((frame) => frame.data[0] === 9)).toEqual([]);
    owner.client.close();
  });
});

describe('a member the owner removes or bans', () => {
  for (const action of ['member/kick', 'member/ban'] as const) {
    it(`is heard by nobody from the moment of the ${action}, in any of their tabs`, async () => {
      const { roomId, owner, settle } = await roomWithOwner();
      const max = await createUser('Max');
      const tab = await enter(roomId, 'Max', { token: max.token, ip: '10.32.1.1' });
      const otherTab = await enter(roomId, 'Max', { token: max.token, ip: '10.32.1.1' });
      // Both tabs keep talking while the owner acts, so some of it crosses the removal.
      let sending = true;
      const keepTalking = (client: RoomClient) => {
        client.send({ type: 'voice/talk', talking: true });
        let sequence = 0;
        const timer = setInterval(() => {
          if (!sending || client.closed) return clearInterval(timer);
          client.sendBytes(packet(7, sequence++));
        }, 20);
      };
      keepTalking(tab.client);
      keepTalking(otherTab.client);
      const maxHeard = () => owner.client.voice.filter((frame) => frame.data[0] === 7).length;
      await owner.client.until(() => maxHeard() > 0, 'Max talking');
      // What the owner had heard of Max when told each seat left (registered after RoomClient's own listener).
      const heardAtLeft: number[] = [];
      owner.client.socket.on('message', (data, isBinary) => {
        if (!isBinary && String(data).includes('"member/left"')) heardAtLeft.push(maxHeard());
      });
      owner.client.send({ type: action, memberId: tab.id });
      const closeCode = action === 'member/ban' ? ROOM_CLOSE_CODES.BANNED : ROOM_CLOSE_CODES.KICKED;
      expect((await tab.client.closedWith()).code).toBe(closeCode);
      expect((await otherTab.client.closedWith()).code).toBe(closeCode);
      sending = false;
      await settle();
      // Nothing of Max's after the owner was told both seats left (frames and messages keep one order per socket).
      expect(heardAtLeft).toHaveLength(2);
      expect(maxHeard()).toBe(heardAtLeft[1]);
      expect(owner.client.of('voice/state').at(-1)?.speaking).not.toContain(tab.id);
      owner.client.close();
    });
  }
});

describe('a flood of voice', () => {
  it('reaches the others only within the limit, and the speaker stays connected', async () => {
    const { roomId, owner, settle } = await roomWithOwner();
    const flooder = await enter(roomId, 'Flo', { ip: '10.32.2.1' });
    flooder.client.send({ type: 'voice/talk', talking: true });
    await owner.client.next('voice/state', (state) => state.speaking.includes(flooder.id));
    const started = Date.now();
    for (let i = 0; i < 1000; i++) flooder.client.sendBytes(packet(3, i));
    // The flooder's own ping is answered after the server went through all 1000 (one socket's messages keep their
    // order); only then does the marker tell when the owner has all that was passed on.
    flooder.client.send({ type: 'system/ping', t: 1000 });
    await flooder.client.next('system/pong', (pong) => pong.t === 1000);
    await settle();
    const elapsed = Date.now() - started;
    const heard = heardFrom(owner.client, flooder.id);
    expect(heard.length).toBeGreaterThanOrEqual(VOICE_FRAME_RATE_LIMIT);
    expect(heard.length).toBeLessThanOrEqual(
      allowance(VOICE_FRAME_RATE_LIMIT, VOICE_FRAME_RATE_WINDOW_MS, elapsed),
    );
    expect(flooder.client.closed).toBeUndefined();
    flooder.client.close();
    owner.client.close();
  });

  it('of oversized packets or binary that is not voice is refused, and a stream of it closes the socket', async () => {
    const { roomId, owner, settle } = await roomWithOwner();
    const bad = await enter(roomId, 'Bad', { ip: '10.32.3.1' });
    bad.client.send({ type: 'voice/talk', talking: true });
    bad.client.sendBytes(packet(5, 0, VOICE_PAYLOAD_MAX_BYTES + 1));
    bad.client.sendBytes(new Uint8Array([1, 3, 0, 0, 0, 0]));
    for (let i = 0; i < 30; i++) bad.client.sendBytes(packet(5, i + 1, 2000));
    expect((await bad.client.closedWith()).code).toBe(ROOM_CLOSE_CODES.TOO_MANY_BAD_MESSAGES);
    expect(bad.client.of('system/error').slice(0, 2)).toEqual([
      { type: 'system/error', code: 'BAD_MESSAGE', message: 'This voice packet is too large' },
      {
        type: 'system/error',
        code: 'BAD_MESSAGE',
        message: 'Binary messages are not accepted from participants',
      },
    ]);
    await settle();
    expect(heardFrom(owner.client, bad.id)).toEqual([]);
    owner.client.close();
  });
});

describe('the owner', () => {
  it('mutes a member for everyone and turns voice off; only the owner may', async () => {
    const { roomId, owner, marker, settle } = await roomWithOwner();
    const gus = await enter(roomId, 'Gus', { ip: '10.32.4.1' });
    gus.client.send({ type: 'voice/mute', memberId: marker.id, muted: true });
    gus.client.send({ type: 'voice/enable', enabled: false });
    await gus.client.until(() => gus.client.of('system/error').length === 2, 'two refusals');
    expect(gus.client.of('system/error').map((error) => [error.code, error.about])).toEqual([
      ['NOT_OWNER', 'voice/mute'],
      ['NOT_OWNER', 'voice/enable'],
    ]);
    gus.client.send({ type: 'voice/talk', talking: true });
    owner.client.send({ type: 'voice/mute', memberId: gus.id, muted: true });
    await gus.client.next('voice/state', (state) => state.muted.includes(gus.id));
    for (let i = 0; i < 5; i++) gus.client.sendBytes(packet(6, i));
    gus.client.send({ type: 'voice/talk', talking: true });
    for (let i = 5; i < 10; i++) gus.client.sendBytes(packet(6, i));
    await settleFromGus();
    expect(heardFrom(owner.client, gus.id)).toEqual([]);

    owner.client.send({ type: 'voice/enable', enabled: false });
    await marker.client.next('voice/state', (state) => !state.enabled);
    marker.client.send({ type: 'voice/talk', talking: true });
    for (let i = 0; i < 5; i++) marker.client.sendBytes(packet(8, i));
    owner.client.send({ type: 'voice/enable', enabled: true });
    await settleAfterOn();
    expect(owner.client.voice.filter((frame) => frame.data[0] === 8)).toEqual([]);
    owner.client.close();

    /** Gus's chat after his packets reached the owner: his earlier packets have arrived or never will. */
    async function settleFromGus() {
      const text = `done ${randomBytes(4).toString('hex')}`;
      gus.client.send({ type: 'chat/send', text });
      await owner.client.next('chat/message', (message) => message.message.text === text);
    }
    /** Voice back on: the marker talks again and is heard. */
    async function settleAfterOn() {
      await marker.client.until(() => marker.client.of('voice/state').at(-1)?.enabled === true, 'voice on');
      marker.client.send({ type: 'voice/talk', talking: true });
      await settle();
    }
  });
});
