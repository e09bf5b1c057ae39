// A gateway in front of an agent that stopped answering: its machine cut off, or the process stuck. Nothing breaks
// the connection, so only the gateway's own limits tell the participant that the room is restarting (where it
// runs again, their page follows it); TCP's would take minutes.
import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import { fleet } from '@rooms/api';
import { roomSocketPath } from '@rooms/api/room-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RoomClient } from '../testing/room-client';
import { storedRoom, storedUser } from '../testing/stored-accounts';
import { startTestServer, type TTestServer } from '../testing/test-server';

let control: TTestServer;
let gateway: TTestServer;
/** An agent's port that accepts connections and never answers. */
let stuck: Server;
const held: Socket[] = [];

beforeAll(async () => {
  // The gateway's credential, to call agents at all, comes from the control plane.
  control = await startTestServer({ env: { ROOM_ROLE: 'control' } });
  gateway = await startTestServer({
    env: { ROOM_ROLE: 'gateway', DATABASE_URL: control.config.databaseUrl!, CONTROL_URL: control.url },
  });
  stuck = createServer((socket) => held.push(socket));
  stuck.listen(0, '127.0.0.1');
  await once(stuck, 'listening');
}, 60_000);

afterAll(async () => {
  for (const socket of held) socket.destroy();
  stuck?.close();
  await gateway?.close();
  await control?.close();
});

describe('a gateway whose agent stopped answering', () => {
  it('tells the participant the room is restarting within the handshake limit', async () => {
    const owner = await storedUser(gateway.app.orm, { prefix: 'stuck' });
    const room = await storedRoom(gateway.app.orm, owner.id, { startUrl: 'about:blank' });
    const port = (stuck.address() as { port: number }).port;
    const now = new Date();
    await fleet.registerAgent(
      gateway.app.orm.em.fork(),
      { regionCode: 'local', address: `127.0.0.1:${port}`, capacity: 1, version: 'test' },
      now,
    );
    const { run } = await fleet.placeRun(gateway.app.orm.em.fork(), room.id, now);
    expect(await fleet.markRunRunning(gateway.app.orm.em.fork(), run.id, run.epoch, now)).toMatchObject({
      ok: true,
    });

    const began = Date.now();
    const client = await RoomClient.connect(
      `${gateway.url.replace(/^http/, 'ws')}${roomSocketPath(room.id)}?token=${encodeURIComponent(owner.token)}`,
    );
    await client.until(() => client.closed !== undefined, 'the socket to close', 30_000);
    // It waited on the agent's handshake with no limit (about two minutes, the kernel's).
    expect(Date.now() - began).toBeLessThan(20_000);
    expect(client.of('system/room-ended')).toMatchObject([{ reason: 'restarting' }]);
    await expect.poll(() => held.length).toBeGreaterThan(0);
  }, 60_000);
});
