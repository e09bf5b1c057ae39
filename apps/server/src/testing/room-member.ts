// A participant entering a room of a test server as the web page does: a ticket (as a signed-in user or a guest with
// the share password), the room socket with the server's own Origin, and the join; answers the socket and the
// member id the room gave it.
import { roomSocketPath, type TRoomTicketResponse } from '@rooms/api/room-protocol';
import { expect } from 'vitest';
import { RoomClient } from './room-client';
import type { TTestServer } from './test-server';

export async function enterAsMember(
  server: TTestServer,
  roomId: string,
  nickname: string,
  auth: { token?: string; password?: string },
): Promise<{ client: RoomClient; you: string }> {
  const response = await server.app.inject({
    method: 'POST',
    url: '/ws/ticket',
    headers: auth.token ? { authorization: auth.token } : {},
    payload: { roomId, password: auth.password },
  });
  expect(response.statusCode, response.body).toBe(200);
  const { ticket } = response.json() as TRoomTicketResponse;
  const url = `${server.url.replace(/^http/, 'ws')}${roomSocketPath(roomId)}?ticket=${encodeURIComponent(ticket)}`;
  const client = await RoomClient.connect(url, { origin: new URL(server.config.publicUrl).origin });
  client.send({ type: 'member/join', nickname });
  return { client, you: (await client.next('member/list')).you };
}
