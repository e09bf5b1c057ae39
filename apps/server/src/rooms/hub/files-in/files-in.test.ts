// Files handed into the room as members see them, through a real hub on a LocalRoomSession whose browser side
// (the file chooser, the room's storage) is a recording double: who is told of a chooser, who may hand a file
// over, the plan's limit, cleaned names, and what is left of a refused upload.
import {
  FILE_IN_CHUNK_BYTES,
  FILE_IN_MAX_BYTES_FREE,
  type TServerMessage,
  type TServerMessageOf,
} from '@rooms/api/room-protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalRoomSession } from '../../../testing/rooms/local-room-session';
import type { TFileInWriter, TFileRequest, TRoomFilesIn } from '../../room-session';
import { type HubPeer, RoomHub } from '../room-hub';

class RecordingPeer implements HubPeer {
  readonly messages: TServerMessage[] = [];
  bufferedAmount = 0;

  send(message: TServerMessage): void {
    this.messages.push(message);
  }

  sendFrame(_frame: Uint8Array, written: () => void): void {
    written();
  }

  close(): void {}

  of<K extends TServerMessage['type']>(type: K): TServerMessageOf<K>[] {
    return this.messages.filter((message): message is TServerMessageOf<K> => message.type === type);
  }
}

/** The browser's side: choosers opened by the test, files kept in memory. */
class FakeFilesIn implements TRoomFilesIn {
  readonly pending = new Set<string>();
  readonly files = new Map<string, { name: string; bytes: Buffer[]; closed: boolean; discarded: boolean }>();
  readonly given: { requestId: string; path: string }[] = [];
  readonly dropped: { path: string; x: number; y: number }[] = [];
  private readonly listeners = new Set<(request: TFileRequest) => void>();
  private count = 0;

  open(requestId: string): void {
    this.pending.add(requestId);
    for (const listener of this.listeners) listener({ requestId, multiple: false });
  }

  onRequest(listener: (request: TFileRequest) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  isPending(requestId: string): boolean {
    return this.pending.has(requestId);
  }

  decline(requestId: string): void {
    this.pending.delete(requestId);
  }

  async create(name: string): Promise<TFileInWriter> {
    const path = `/run/in-${++this.count}/${name}`;
    const file = { name, bytes: [] as Buffer[], closed: false, discarded: false };
    this.files.set(path, file);
    return {
      path,
      write: async (bytes) => void file.bytes.push(Buffer.from(bytes)),
      close: async () => {
        file.closed = true;
      },
      discard: async () => {
        file.discarded = true;
      },
    };
  }

  async give(requestId: string, path: string): Promise<boolean> {
    if (!this.pending.delete(requestId)) return false;
    this.given.push({ requestId, path });
    return true;
  }

  async drop(path: string, x: number, y: number): Promise<void> {
    this.dropped.push({ path, x, y });
  }
}

class FilesSession extends LocalRoomSession {
  readonly filesIn = new FakeFilesIn();
}

const sessions: LocalRoomSession[] = [];
afterEach(() => {
  for (const session of sessions.splice(0)) session.stop();
});

function setup(fileInMaxBytes?: number) {
  const session = new FilesSession('room-1', { fps: 5 });
  sessions.push(session);
  const hub = new RoomHub({
    room: {
      id: 'room-1',
      ownerId: 'owner-user',
      ownerName: 'Olga',
      maxConnections: 6,
      password: null,
      isPublic: false,
      maxFrameRate: 30,
      fileInMaxBytes,
    },
    session,
    participantsChanged: () => {},
    statsIntervalMs: 0,
  });
  function enter(identity: { userId: string | null; guestId?: string }, nickname: string) {
    const peer = new RecordingPeer();
    const result = hub.join(peer, identity, nickname);
    if (!result.ok) throw new Error(`${nickname} could not join: ${result.code}`);
    return { peer, id: result.memberId };
  }
  // The owner takes the empty seat of control on joining: the guest watches.
  const owner = enter({ userId: 'owner-user' }, 'Olga');
  const guest = enter({ userId: null, guestId: 'guest-1' }, 'Gus');
  return { hub, session, filesIn: session.filesIn, owner, guest };
}

/** Lets the hub's writes (promises) run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

function chunksOf(bytes: Buffer): { offset: number; data: string }[] {
  const chunks = [];
  for (let offset = 0; offset < bytes.length; offset += FILE_IN_CHUNK_BYTES) {
    chunks.push({ offset, data: bytes.subarray(offset, offset + FILE_IN_CHUNK_BYTES).toString('base64') });
  }
  return chunks;
}

describe('files into the room', () => {
  it('tells the controller alone that a page asks for a file, with the plan limit', () => {
    const { filesIn, owner, guest } = setup();
    filesIn.open('req-1');
    expect(owner.peer.of('file/requested')).toEqual([
      { type: 'file/requested', requestId: 'req-1', multiple: false, maxBytes: FILE_IN_MAX_BYTES_FREE },
    ]);
    expect(guest.peer.of('file/requested')).toEqual([]);
  });

  it('stores the controller file in chunks and gives it to the page chooser', async () => {
    const { hub, filesIn, owner } = setup();
    filesIn.open('req-1');
    const bytes = Buffer.alloc(FILE_IN_CHUNK_BYTES * 2 + 100, 7);
    hub.handle(owner.id, { type: 'file/begin', requestId: 'req-1', name: 'report.pdf', size: bytes.length });
    const [accepted] = owner.peer.of('file/accepted');
    expect(accepted?.name).toBe('report.pdf');
    for (const chunk of chunksOf(bytes)) {
      hub.handle(owner.id, { type: 'file/chunk', uploadId: accepted!.uploadId, ...chunk });
    }
    await settle();
    expect(owner.peer.of('file/progress').at(-1)?.received).toBe(bytes.length);
    expect(owner.peer.of('file/delivered')).toEqual([
      { type: 'file/delivered', uploadId: accepted!.uploadId, name: 'report.pdf', size: bytes.length },
    ]);
    const [given] = filesIn.given;
    expect(given?.requestId).toBe('req-1');
    const file = filesIn.files.get(given!.path)!;
    expect(Buffer.concat(file.bytes).equals(bytes)).toBe(true);
    expect(file.closed).toBe(true);
  });

  it('drops a file where the controller dropped it on the picture', async () => {
    const { hub, filesIn, owner } = setup();
    hub.handle(owner.id, { type: 'file/begin', requestId: null, name: 'a.txt', size: 3, x: 0.25, y: 0.75 });
    const [accepted] = owner.peer.of('file/accepted');
    hub.handle(owner.id, { type: 'file/chunk', uploadId: accepted!.uploadId, offset: 0, data: 'YWJj' });
    await settle();
    expect(filesIn.dropped).toEqual([{ path: '/run/in-1/a.txt', x: 0.25, y: 0.75 }]);
  });

  it('refuses a file from a member who does not control the room, and ignores their chunks', async () => {
    const { hub, filesIn, owner, guest } = setup();
    filesIn.open('req-1');
    hub.handle(guest.id, { type: 'file/begin', requestId: 'req-1', name: 'x.exe', size: 10 });
    expect(guest.peer.of('file/refused')).toMatchObject([{ reason: 'not-controller', uploadId: null }]);
    expect(filesIn.files.size).toBe(0);
    // The guest cannot slip bytes into the controller's upload either.
    hub.handle(owner.id, { type: 'file/begin', requestId: 'req-1', name: 'ok.txt', size: 3 });
    const [accepted] = owner.peer.of('file/accepted');
    hub.handle(guest.id, { type: 'file/chunk', uploadId: accepted!.uploadId, offset: 0, data: 'ZXZp' });
    hub.handle(owner.id, { type: 'file/chunk', uploadId: accepted!.uploadId, offset: 0, data: 'YWJj' });
    await settle();
    const file = filesIn.files.get(filesIn.given[0]!.path)!;
    expect(Buffer.concat(file.bytes).toString()).toBe('abc');
  });

  it('refuses a file larger than the plan allows, before any byte is stored', () => {
    const { hub, filesIn, owner } = setup(1000);
    filesIn.open('req-1');
    hub.handle(owner.id, { type: 'file/begin', requestId: 'req-1', name: 'big.bin', size: 1001 });
    expect(owner.peer.of('file/refused')).toEqual([
      { type: 'file/refused', uploadId: null, name: 'big.bin', reason: 'too-large', maxBytes: 1000 },
    ]);
    expect(filesIn.files.size).toBe(0);
  });

  it('breaks off an upload that sends more than it announced, and deletes what it wrote', async () => {
    const { hub, filesIn, owner } = setup();
    filesIn.open('req-1');
    hub.handle(owner.id, { type: 'file/begin', requestId: 'req-1', name: 'liar.bin', size: 3 });
    const [accepted] = owner.peer.of('file/accepted');
    hub.handle(owner.id, { type: 'file/chunk', uploadId: accepted!.uploadId, offset: 0, data: 'YWJjZA==' });
    await settle();
    expect(owner.peer.of('file/refused')).toMatchObject([
      { reason: 'too-large', uploadId: accepted!.uploadId },
    ]);
    expect([...filesIn.files.values()][0]?.discarded).toBe(true);
    expect(filesIn.given).toEqual([]);
  });

  it('breaks off an upload whose chunks skip or repeat bytes', async () => {
    const { hub, filesIn, owner } = setup();
    filesIn.open('req-1');
    hub.handle(owner.id, { type: 'file/begin', requestId: 'req-1', name: 'a.bin', size: 6 });
    const [accepted] = owner.peer.of('file/accepted');
    hub.handle(owner.id, { type: 'file/chunk', uploadId: accepted!.uploadId, offset: 3, data: 'YWJj' });
    await settle();
    expect(owner.peer.of('file/refused')).toMatchObject([{ reason: 'failed' }]);
  });

  it('keeps only the last segment of a name, without control characters or hidden dots', () => {
    const { hub, filesIn, owner } = setup();
    for (const [raw, kept] of [
      ['../../etc/passwd', 'passwd'],
      ['..\\..\\Windows\\win.ini', 'win.ini'],
      ['/abs/path/.bashrc', 'bashrc'],
      ['evil\u202Egpj.exe', 'evilgpj.exe'],
      ['..', 'download'],
    ]) {
      filesIn.open(`req-${raw}`);
      hub.handle(owner.id, { type: 'file/begin', requestId: `req-${raw}`, name: raw!, size: 1 });
      const accepted = owner.peer.of('file/accepted').at(-1)!;
      expect(accepted.name).toBe(kept);
      hub.handle(owner.id, { type: 'file/cancel', uploadId: accepted.uploadId });
    }
    expect([...filesIn.files.values()].map((file) => file.name)).toEqual([
      'passwd',
      'win.ini',
      'bashrc',
      'evilgpj.exe',
      'download',
    ]);
  });

  it('hands one file at a time, and none to a chooser that was declined', () => {
    const { hub, filesIn, owner } = setup();
    filesIn.open('req-1');
    hub.handle(owner.id, { type: 'file/begin', requestId: null, name: 'a.txt', size: 5 });
    hub.handle(owner.id, { type: 'file/begin', requestId: 'req-1', name: 'b.txt', size: 5 });
    expect(owner.peer.of('file/refused')).toMatchObject([{ reason: 'busy', name: 'b.txt' }]);
    hub.handle(owner.id, { type: 'file/cancel', requestId: 'req-1' });
    hub.handle(owner.id, { type: 'file/begin', requestId: 'req-1', name: 'c.txt', size: 5 });
    expect(owner.peer.of('file/refused')[1]).toMatchObject({ reason: 'no-request', name: 'c.txt' });
  });

  it('tells whoever takes control of a chooser still waiting, and nobody of one declined', () => {
    const { hub, filesIn, owner, guest } = setup();
    filesIn.open('req-1');
    // The queue changing is no news about the chooser.
    hub.handle(guest.id, { type: 'control/request' });
    expect(owner.peer.of('file/requested')).toHaveLength(1);
    hub.handle(owner.id, { type: 'control/grant', memberId: guest.id });
    expect(guest.peer.of('file/requested')).toMatchObject([{ requestId: 'req-1' }]);
    hub.handle(guest.id, { type: 'file/cancel', requestId: 'req-1' });
    hub.handle(guest.id, { type: 'control/release' });
    hub.handle(owner.id, { type: 'control/take' });
    expect(owner.peer.of('file/requested')).toHaveLength(1);
  });

  it('breaks off the upload when its sender loses control', async () => {
    const { hub, filesIn, owner, guest } = setup();
    filesIn.open('req-1');
    hub.handle(owner.id, { type: 'file/begin', requestId: 'req-1', name: 'a.txt', size: 6 });
    const [accepted] = owner.peer.of('file/accepted');
    hub.handle(owner.id, { type: 'control/grant', memberId: guest.id });
    hub.handle(owner.id, { type: 'file/chunk', uploadId: accepted!.uploadId, offset: 0, data: 'YWJj' });
    await settle();
    expect(owner.peer.of('file/refused')).toMatchObject([{ reason: 'not-controller' }]);
    expect([...filesIn.files.values()][0]?.discarded).toBe(true);
  });
});
