// A room's chat as its hub runs it: who may send now (the rate limit, per person), what joiners read (the room's
// earlier runs included, from where messages are stored), and the store, written in the order things happened
// without holding anyone's message up: members see a message at once, the database follows.
import { randomUUID } from 'node:crypto';
import type { TChatEntry } from '@rooms/api/room-protocol';
import type { TJoinIdentity } from '../hub-context';
import { ChatLog, ChatRateLimits, type TChatAuthor, type TChatRecord } from './chat-log';

/** Where a room's messages outlive its hub (the database; relay-ports.ts). */
export interface TRoomChatStore {
  append(records: readonly TChatRecord[]): Promise<void>;
  forget(authors: readonly TChatAuthor[]): Promise<void>;
}

export interface TRoomChatOptions {
  /** The latest messages of the room's earlier runs, oldest first. */
  earlier?: readonly TChatRecord[];
  /** Without it, messages last as long as the hub (a test's own room data). */
  store?: TRoomChatStore;
}

export interface TChatSender {
  memberId: string;
  nickname: string;
  identity: TJoinIdentity;
}

/** The person behind a seat, as the rate limit counts them: account, browser, address, or else the seat. */
function personOf(sender: TChatSender): string {
  const { userId, guestId, ip } = sender.identity;
  if (userId !== null) return `user:${userId}`;
  if (guestId) return `guest:${guestId}`;
  if (ip) return `address:${ip}`;
  return `seat:${sender.memberId}`;
}

export class RoomChat {
  private readonly log: ChatLog;
  private readonly limits = new ChatRateLimits();
  private readonly writer: ChatWriter | undefined;

  constructor(options: TRoomChatOptions, warn: (error: unknown, what: string) => void) {
    this.log = new ChatLog(options.earlier);
    this.writer = options.store ? new ChatWriter(options.store, warn) : undefined;
  }

  /** What a joiner is shown, oldest first. */
  history(): TChatEntry[] {
    return this.log.history();
  }

  /** The message as everyone is shown it, or null when its sender is over the rate limit. */
  send(sender: TChatSender, text: string, now: number): TChatEntry | null {
    if (!this.limits.allow(personOf(sender), now)) return null;
    const entry: TChatEntry = {
      id: randomUUID(),
      memberId: sender.memberId,
      nickname: sender.nickname,
      text,
      at: now,
    };
    const record = {
      ...entry,
      author: { userId: sender.identity.userId, guestId: sender.identity.guestId ?? null },
    };
    this.log.add(record);
    this.writer?.append(record);
    return entry;
  }

  /** Takes a banned person's messages away, here and where they are stored; whether joiners' history changed. */
  retract(authors: readonly TChatAuthor[]): boolean {
    const named = authors
      .filter((author) => author.userId !== null || author.guestId !== null)
      .map(({ userId, guestId }) => ({ userId, guestId }));
    if (named.length === 0) return false;
    this.writer?.forget(named);
    return this.log.retract(named);
  }
}

/**
 * Writes to the store one after another, in the order they happened (a ban's removal after the messages it
 * removes); messages that arrive while a write runs go together in the next one.
 */
class ChatWriter {
  private pending: TChatRecord[] = [];
  private scheduled = false;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: TRoomChatStore,
    private readonly warn: (error: unknown, what: string) => void,
  ) {}

  append(record: TChatRecord): void {
    this.pending.push(record);
    if (this.scheduled) return;
    this.scheduled = true;
    this.queue(() => {
      this.scheduled = false;
      const batch = this.pending;
      this.pending = [];
      return this.store.append(batch);
    }, 'chat messages not stored');
  }

  forget(authors: readonly TChatAuthor[]): void {
    this.queue(() => this.store.forget(authors), 'a banned person’s chat messages not removed from storage');
  }

  private queue(task: () => Promise<void>, what: string): void {
    this.chain = this.chain.then(task).catch((error: unknown) => this.warn(error, what));
  }
}
