import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TServerMessage } from '@rooms/api/room-protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RoomFilesOut } from './room-files-out';
import type { HubPeer } from './room-hub';

/** A member's end of the hub: what it was sent. */
function peer(): HubPeer & { sent: TServerMessage[] } {
  const sent: TServerMessage[] = [];
  return {
    sent,
    bufferedAmount: 0,
    sendFrame: () => {},
    send: (message) => sent.push(message),
    close: () => {},
  };
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'files-out-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function finished(name: string) {
  const path = join(dir, name);
  await writeFile(path, 'bytes');
  return { kind: 'download' as const, path, name, size: 5, mime: 'text/plain' };
}

describe('what leaves a room, on the hub', () => {
  it('offers a download to the controller once, for its key, while that person stays in control', async () => {
    const olga = peer();
    let controller: { id: string; peer: HubPeer } | undefined = { id: 'olga', peer: olga };
    const filesOut = new RoomFilesOut({ roomId: 'r1', controller: () => controller, now: () => 1000 });
    filesOut.handle(await finished('a.txt'));
    const offer = olga.sent[0];
    if (offer?.type !== 'download/offered') throw new Error('no offer');
    expect(offer).toMatchObject({ name: 'a.txt', size: 5, mime: 'text/plain', expiresAt: 1000 + 5 * 60_000 });
    const key = new URL(offer.url, 'http://x').searchParams.get('key')!;
    expect(filesOut.take(offer.id, `${key}x`)).toBeUndefined();
    expect(filesOut.take(offer.id, key)).toMatchObject({ name: 'a.txt', path: join(dir, 'a.txt') });
    expect(filesOut.take(offer.id, key)).toBeUndefined();

    // A second offer, then control moves on: the link is dead and the file deleted.
    filesOut.handle(await finished('b.txt'));
    const second = olga.sent[1];
    if (second?.type !== 'download/offered') throw new Error('no offer');
    controller = { id: 'gus', peer: peer() };
    expect(
      filesOut.take(second.id, new URL(second.url, 'http://x').searchParams.get('key')!),
    ).toBeUndefined();
    await expect.poll(() => readdir(dir)).toEqual(['a.txt']);
  });

  it('keeps nothing nobody can take: no controller, or a server that cannot serve the fetch', async () => {
    const nobody = new RoomFilesOut({ roomId: 'r1', controller: () => undefined, now: () => 0 });
    nobody.handle(await finished('a.txt'));
    const olga = peer();
    const agent = new RoomFilesOut({
      roomId: 'r1',
      controller: () => ({ id: 'olga', peer: olga }),
      now: () => 0,
      served: false,
    });
    agent.handle(await finished('b.txt'));
    expect(olga.sent).toEqual([
      { type: 'download/refused', name: 'b.txt', reason: 'unavailable', maxBytes: 100 * 1024 * 1024 },
    ]);
    await expect.poll(() => readdir(dir)).toEqual([]);
  });

  it('keeps at most three offers waiting and deletes every waiting file when the room stops', async () => {
    const olga = peer();
    const filesOut = new RoomFilesOut({
      roomId: 'r1',
      controller: () => ({ id: 'olga', peer: olga }),
      now: () => 0,
    });
    for (const name of ['1', '2', '3', '4']) filesOut.handle(await finished(name));
    await expect.poll(async () => (await readdir(dir)).sort()).toEqual(['2', '3', '4']);
    filesOut.close();
    await expect.poll(() => readdir(dir)).toEqual([]);
  });
});
