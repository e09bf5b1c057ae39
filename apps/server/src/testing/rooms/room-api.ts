// The room API over REST as tests call it, on a test server's app: the documented room calls by name, and a room
// created with a unique name in the local zone (any field may be given instead).
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { rest } from '../rest-client';
import { type TTestOwner, uniqueRoomName } from '../room-test-users';

export type TApiRoom = Record<string, unknown> & { id: string; name: string; state: string };

export function roomApi(app: () => FastifyInstance) {
  function call<T = unknown>(
    owner: TTestOwner | null,
    method: 'GET' | 'POST',
    procedure: string,
    options: { query?: Record<string, string>; body?: unknown } = {},
  ) {
    return rest<T>(app(), method, `/api/room/${procedure}`, { ...options, token: owner?.token });
  }

  function createRoom(owner: TTestOwner, body: Record<string, unknown> = {}) {
    return call<TApiRoom>(owner, 'POST', 'createRoom', {
      body: { name: uniqueRoomName(), region: 'local', image: 'chromium-blank', ...body },
    });
  }

  /** A room created as asked, or the test fails with the reply. */
  async function createdRoom(owner: TTestOwner, body: Record<string, unknown> = {}): Promise<TApiRoom> {
    const reply = await createRoom(owner, body);
    expect(reply, JSON.stringify(reply.data)).toMatchObject({ status: 200, msg: 'success' });
    return reply.data;
  }

  return { call, createRoom, createdRoom };
}
