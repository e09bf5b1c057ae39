// @vitest-environment happy-dom
import { encodeMediaFrame, encodePaddingFrame, ROOM_CLOSE_CODES } from '@rooms/api/room-protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LAYER_CHOICE_KEY } from './layer-choice';
import { RoomConnection, type TRoomConnectionEvents } from './room-connection';
import { ACK_EVERY_MS } from './stream-acks';

/** The socket the connection opens, driven by the test as the server would. */
class FakeSocket {
  static readonly OPEN = 1;
  static readonly sockets: FakeSocket[] = [];
  readyState = 0;
  binaryType = 'blob';
  readonly sent: Record<string, unknown>[] = [];
  private readonly listeners = new Map<string, ((event: unknown) => void)[]>();

  constructor(readonly url: string) {
    FakeSocket.sockets.push(this);
  }

  addEventListener(type: string, listener: (event: unknown) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  send(data: string): void {
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }

  close(): void {
    this.readyState = 3;
  }

  open(): void {
    this.readyState = FakeSocket.OPEN;
    this.emit('open', {});
  }

  message(data: unknown): void {
    this.emit('message', { data });
  }

  drop(code = 1006): void {
    this.readyState = 3;
    this.emit('close', { code, reason: '' });
  }

  of(type: string): Record<string, unknown>[] {
    return this.sent.filter((message) => message.type === type);
  }

  private emit(type: string, event: unknown): void {
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }
}

const events: TRoomConnectionEvents = {
  frame: () => undefined,
  error: () => undefined,
  pong: () => undefined,
  stats: () => undefined,
};

/** Waits for the connection's `count`th socket (counting every connection's) and opens it. */
async function connected(count: number): Promise<FakeSocket> {
  await vi.waitFor(() => expect(FakeSocket.sockets.length).toBeGreaterThanOrEqual(count));
  const socket = FakeSocket.sockets[count - 1];
  if (!socket) throw new Error('no socket');
  socket.open();
  return socket;
}

describe('RoomConnection', () => {
  beforeEach(() => {
    FakeSocket.sockets.length = 0;
    localStorage.clear();
    vi.stubGlobal('WebSocket', FakeSocket);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ ticket: 'ticket' }), { status: 200 })),
    );
  });

  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('joins with the layer kept in this browser, and keeps a new choice for the next join', async () => {
    const first = new RoomConnection('room', 'Kim', events, { decoders: ['h264', 'opus', 'jpeg'] });
    void first.connect();
    const socket = await connected(1);
    expect(socket.of('member/join')[0]).toMatchObject({ nickname: 'Kim', layer: 'auto', acks: true });

    first.choose('low');
    expect(socket.of('stream/choose')).toEqual([{ type: 'stream/choose', layer: 'low' }]);
    expect(first.getSnapshot().choice).toBe('low');
    expect(localStorage.getItem(LAYER_CHOICE_KEY)).toBe('low');
    // The same choice again changes nothing.
    first.choose('low');
    expect(socket.of('stream/choose')).toHaveLength(1);
    first.dispose();

    const next = new RoomConnection('other-room', 'Kim', events, { decoders: ['h264', 'opus', 'jpeg'] });
    expect(next.getSnapshot().choice).toBe('low');
    void next.connect();
    expect((await connected(2)).of('member/join')[0]).toMatchObject({ layer: 'low' });
    next.dispose();
  });

  it('follows the layer the room sends, and forgets it with the socket', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const connection = new RoomConnection('room', 'Kim', events, { decoders: ['h264', 'opus', 'jpeg'] });
    void connection.connect();
    const socket = await connected(1);
    socket.message(
      JSON.stringify({ type: 'stream/layer', layer: 'medium', choice: 'auto', reason: 'congested' }),
    );
    expect(connection.getSnapshot().layer).toEqual({
      type: 'stream/layer',
      layer: 'medium',
      choice: 'auto',
      reason: 'congested',
    });
    socket.drop();
    await vi.advanceTimersByTimeAsync(1000);
    await connected(2);
    expect(connection.getSnapshot().layer).toBeNull();
    connection.dispose();
  });

  it('acknowledges the bytes of every binary message, counted from each socket’s start', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const connection = new RoomConnection('room', 'Kim', events, { decoders: ['h264', 'opus', 'jpeg'] });
    void connection.connect();
    const socket = await connected(1);
    // Not media frames this client can decode: still bytes the link carried, so still acknowledged.
    socket.message(new ArrayBuffer(1200));
    socket.message(new ArrayBuffer(300));
    socket.message(new ArrayBuffer(500));
    expect(socket.of('stream/ack').map((ack) => ack.bytes)).toEqual([1200]);
    await vi.advanceTimersByTimeAsync(ACK_EVERY_MS);
    expect(socket.of('stream/ack').map((ack) => ack.bytes)).toEqual([1200, 2000]);
    // Text messages are not media.
    socket.message(JSON.stringify({ type: 'chat/history', messages: [] }));
    await vi.advanceTimersByTimeAsync(ACK_EVERY_MS * 3);
    expect(socket.of('stream/ack')).toHaveLength(2);

    // Padding (the server probing the link) counts as bytes received, and is never handed on as media.
    const frames: string[] = [];
    const watched = new RoomConnection(
      'room',
      'Lee',
      { ...events, frame: (frame) => frames.push(frame.codec) },
      {
        decoders: ['h264', 'opus', 'jpeg'],
      },
    );
    void watched.connect();
    const probed = await connected(2);
    const sound = encodeMediaFrame({
      codec: 'opus',
      keyframe: true,
      timestamp: 1,
      width: 0,
      height: 0,
      data: new Uint8Array(20),
    });
    probed.message(encodePaddingFrame(4000).buffer);
    probed.message(sound.buffer);
    await vi.advanceTimersByTimeAsync(ACK_EVERY_MS);
    expect(probed.of('stream/ack').map((ack) => ack.bytes)).toEqual([4000, 4000 + sound.byteLength]);
    expect(frames).toEqual(['opus']);
    watched.dispose();

    socket.drop();
    await vi.advanceTimersByTimeAsync(1000);
    const again = await connected(3);
    again.message(new ArrayBuffer(700));
    expect(again.of('stream/ack').map((ack) => ack.bytes)).toEqual([700]);
    connection.dispose();
  });

  it('waits out a restarting room with pauses that grow, asking for few tickets', async () => {
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'],
    });
    const connection = new RoomConnection('room', 'Kim', events, { decoders: ['h264', 'opus', 'jpeg'] });
    void connection.connect();
    const socket = await connected(1);
    const asks: number[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        asks.push(performance.now());
        return new Response(JSON.stringify({ msg: 'error', data: 'The room is not running' }), {
          status: 409,
        });
      }),
    );
    socket.message(JSON.stringify({ type: 'system/room-ended', reason: 'restarting', by: null }));
    socket.drop(ROOM_CLOSE_CODES.ROOM_NOT_RUNNING);
    expect(connection.getSnapshot().status).toBe('waiting');
    const wentAway = performance.now();
    await vi.advanceTimersByTimeAsync(20_000);
    // Soon at first, then less often: a page spends a handful of tickets on a restart, well inside its budget.
    expect(asks[0]! - wentAway).toBeLessThan(600);
    expect(asks.length).toBeGreaterThanOrEqual(10);
    expect(asks.length).toBeLessThanOrEqual(20);
    const gaps = asks.slice(1).map((at, index) => at - asks[index]!);
    expect(gaps.at(-1)!).toBeGreaterThan(gaps[0]! * 1.5);
    expect(connection.getSnapshot().status).toBe('waiting');
    connection.dispose();
  });

  it('asks whether a stopped room runs rather than for tickets it would refuse, and joins once it runs', async () => {
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'],
    });
    let running = true;
    const roomRuns = vi.fn(async () => running);
    const connection = new RoomConnection('room', 'Kim', events, {
      decoders: ['h264', 'opus', 'jpeg'],
      roomRuns,
    });
    void connection.connect();
    const socket = await connected(1);
    running = false;
    socket.message(JSON.stringify({ type: 'system/room-ended', reason: 'stopped', by: 'Olga' }));
    socket.drop(ROOM_CLOSE_CODES.ROOM_NOT_RUNNING);
    expect(connection.getSnapshot()).toMatchObject({ status: 'waiting', away: { reason: 'stopped' } });
    await vi.advanceTimersByTimeAsync(20_000);
    // Each ask is answered "not running" without an HTTP error; no ticket is asked for (each would be a 409).
    expect(roomRuns.mock.calls.length).toBeGreaterThanOrEqual(3);
    expect(vi.mocked(fetch)).toHaveBeenCalledTimes(1);
    expect(connection.getSnapshot().status).toBe('waiting');

    running = true;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(vi.mocked(fetch)).toHaveBeenCalledTimes(2);
    (await connected(2)).message(JSON.stringify({ type: 'member/list', you: 'm1', members: [] }));
    expect(connection.getSnapshot().status).toBe('joined');
    connection.dispose();
  });

  it('goes for a ticket at once when asked to try now while it asks whether the room runs', async () => {
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'],
    });
    let answer: ((runs: boolean) => void) | undefined;
    const roomRuns = vi.fn(
      () =>
        new Promise<boolean>((resolve) => {
          answer = resolve;
        }),
    );
    const connection = new RoomConnection('room', 'Kim', events, {
      decoders: ['h264', 'opus', 'jpeg'],
      roomRuns,
    });
    void connection.connect();
    const socket = await connected(1);
    socket.drop(ROOM_CLOSE_CODES.ROOM_NOT_RUNNING);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(roomRuns).toHaveBeenCalledTimes(1);
    // The owner started the room and the page tries at once; the late answer of the ask changes nothing.
    connection.retryNow();
    await connected(2);
    answer?.(true);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(FakeSocket.sockets).toHaveLength(2);
    expect(vi.mocked(fetch)).toHaveBeenCalledTimes(2);
    connection.dispose();
  });

  it('stops waiting for a room that ended with its owner’s account, and says so without a toast', async () => {
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'],
    });
    const errors: string[] = [];
    const connection = new RoomConnection(
      'room',
      'Kim',
      { ...events, error: (error) => errors.push(error.code) },
      { decoders: ['h264', 'opus', 'jpeg'] },
    );
    void connection.connect();
    const socket = await connected(1);
    const message = 'This room has ended: its owner’s account has been disabled';
    socket.message(JSON.stringify({ type: 'system/room-ended', reason: 'account-disabled', by: null }));
    socket.message(JSON.stringify({ type: 'system/error', code: 'OWNER_DISABLED', message }));
    socket.drop(ROOM_CLOSE_CODES.OWNER_DISABLED);
    expect(connection.getSnapshot()).toMatchObject({ status: 'closed', ended: { code: 'OWNER_DISABLED' } });
    await vi.advanceTimersByTimeAsync(60_000);
    // No waiting for it to come back: one ticket, one socket.
    expect(vi.mocked(fetch)).toHaveBeenCalledTimes(1);
    expect(FakeSocket.sockets).toHaveLength(1);
    expect(errors).toEqual([]);
    connection.dispose();
  });

  it('asks for a ticket again only when a refusal for asking too often says', async () => {
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'],
    });
    const asks: number[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        asks.push(performance.now());
        if (asks.length > 1) return new Response(JSON.stringify({ ticket: 'ticket' }), { status: 200 });
        return new Response(
          JSON.stringify({ msg: 'error', data: 'Too many attempts, please try again in 7 seconds' }),
          { status: 429, headers: { 'retry-after': '7' } },
        );
      }),
    );
    const connection = new RoomConnection('room', 'Kim', events, { decoders: ['h264', 'opus', 'jpeg'] });
    void connection.connect();
    await vi.advanceTimersByTimeAsync(6_900);
    expect(asks).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(200);
    expect(asks).toHaveLength(2);
    await connected(1);
    connection.dispose();
  });
});
