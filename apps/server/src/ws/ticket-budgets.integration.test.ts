// Room tickets are budgeted per browser (its session or guest id) and room, not per address: the pages of a
// household or an office behind one NAT, waiting out a room's restart side by side, are each held to their own
// budget; a client that drops its cookie to get a fresh budget is held back by address.
import { ROOM_TICKET_PATH } from '@rooms/api/room-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedRoom, storedUser } from '../testing/stored-accounts';
import { startTestServer, type TTestServer } from '../testing/test-server';

let server: TTestServer;
let roomId: string;
let otherRoomId: string;
let ownerToken: string;
let addressSequence = 0;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  const owner = await storedUser(server.app.orm, { prefix: 'budget' });
  ownerToken = owner.token;
  // Public and stopped: every ask is answered "not running", as while the room restarts, and counts.
  roomId = (await storedRoom(server.app.orm, owner.id, { startUrl: 'about:blank', isPublic: true })).id;
  otherRoomId = (await storedRoom(server.app.orm, owner.id, { startUrl: 'about:blank', isPublic: true })).id;
});

afterAll(async () => {
  await server?.close();
});

/** One household's address, unused by other tests of this file. */
function household(): string {
  addressSequence += 1;
  return `10.88.${addressSequence}.7`;
}

async function ask(ip: string, room: string, who: { cookie?: string; token?: string } = {}) {
  const response = await server.app.inject({
    method: 'POST',
    url: ROOM_TICKET_PATH,
    remoteAddress: ip,
    headers: {
      ...(who.cookie ? { cookie: who.cookie } : {}),
      ...(who.token ? { authorization: who.token } : {}),
    },
    payload: { roomId: room },
  });
  const setCookie = response.headers['set-cookie'];
  return {
    status: response.statusCode,
    retryAfter: response.headers['retry-after'],
    cookie: typeof setCookie === 'string' ? setCookie.split(';')[0] : undefined,
  };
}

/** A browser: its first ask sets the guest cookie it keeps. */
async function browser(ip: string): Promise<string> {
  const first = await ask(ip, roomId);
  expect(first.status).toBe(409);
  if (!first.cookie) throw new Error('no guest cookie');
  return first.cookie;
}

describe('room tickets', () => {
  it('are budgeted per browser and room: five browsers behind one address all keep asking', async () => {
    const ip = household();
    const browsers = await Promise.all(Array.from({ length: 5 }, () => browser(ip)));
    // 100 asks from one address in a minute, 20 a browser: each inside its own budget.
    for (let round = 1; round < 20; round++) {
      const answers = await Promise.all(browsers.map((cookie) => ask(ip, roomId, { cookie })));
      expect(answers.map((answer) => answer.status)).toEqual([409, 409, 409, 409, 409]);
    }
  });

  it('hold back one browser that asks too often for a room, saying when to ask again, and no one else', async () => {
    const ip = household();
    const [greedy, neighbour] = [await browser(ip), await browser(ip)];
    for (let index = 1; index < 30; index++)
      expect((await ask(ip, roomId, { cookie: greedy })).status).toBe(409);
    const refused = await ask(ip, roomId, { cookie: greedy });
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    // Its neighbour behind the same address, and the same browser for another room, are not held back.
    expect((await ask(ip, roomId, { cookie: neighbour })).status).toBe(409);
    expect((await ask(ip, otherRoomId, { cookie: greedy })).status).toBe(409);
  });

  it('budget a signed-in browser by its session', async () => {
    const ip = household();
    for (let index = 0; index < 30; index++)
      expect((await ask(ip, roomId, { token: ownerToken })).status).toBe(409);
    expect((await ask(ip, roomId, { token: ownerToken })).status).toBe(429);
    // A guest behind the same address still asks.
    expect((await ask(ip, roomId)).status).toBe(409);
  });

  it('hold back by address a client that drops its cookie to start a new budget each time', async () => {
    const ip = household();
    for (let index = 0; index < 60; index++) expect((await ask(ip, roomId)).status).toBe(409);
    const refused = await ask(ip, roomId);
    expect(refused.status).toBe(429);
    expect(refused.cookie).toBeUndefined();
    // Browsers that kept their id are not held back by it.
    expect((await ask(household(), roomId)).status).toBe(409);
  });
});
