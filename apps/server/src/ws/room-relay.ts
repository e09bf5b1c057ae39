// The relay's state for the whole server: its ports, the ticket book and one hub per room with participants.
import { checkShareAccess, describeError, type OnceStore, type RateLimiter } from '@rooms/api';
import type { TKnock, TRoomEnding } from '@rooms/api/room-protocol';
import { DownloadKeys } from '../rooms/hub/download-keys';
import { isRemovedBy } from '../rooms/hub/member/removals';
import { BanList } from '../rooms/hub/member/room-bans';
import { RoomHub, type TJoinIdentity, type TRoomHubOptions } from '../rooms/hub/room-hub';
import type { RoomSession } from '../rooms/room-session';
import { AdmissionPasses } from './admission-pass';
import { ConnectionBook } from './connection-book';
import { GuestIds } from './guest-id';
import type { RoomDirectory, RoomLink, TRelayRoom } from './relay-ports';
import { TicketBook } from './ticket';

export type TOpenRoom =
  | { ok: true; room: TRelayRoom; hub: RoomHub }
  | { ok: false; code: 'ROOM_NOT_FOUND' | 'ROOM_NOT_RUNNING' };

export interface TRoomRelayOptions {
  appSecret: string;
  directory: RoomDirectory;
  link: RoomLink;
  /** The budget of wrong share passwords, shared with the API (scripts that connect with a token spend it too). */
  rateLimiter: RateLimiter;
  /** Where spent tickets are kept: PostgreSQL, so a ticket is spent once on whichever process redeems it. */
  spentTickets: OnceStore;
  log?: TRoomHubOptions['log'];
  /** Passed to every hub (tests shorten the stats interval, benchmarks tune backpressure). */
  hub?: Pick<TRoomHubOptions, 'backpressure' | 'statsIntervalMs' | 'downloadsServed'>;
}

export class RoomRelay {
  readonly tickets: TicketBook;
  readonly guestIds: GuestIds;
  /** Passes of admitted knockers: signed by the room's hub, checked by POST /ws/ticket. */
  readonly passes: AdmissionPasses;
  /** Signs the keys of the rooms' offered downloads (../rooms/hub/download-keys.ts). */
  readonly downloadKeys: DownloadKeys;
  /** Every room socket of this server, whatever its room (the cap on waiting sockets, session ends). */
  readonly connections = new ConnectionBook();
  private directory: RoomDirectory;
  private link: RoomLink;
  private readonly hubs = new Map<string, RoomHub>();
  private stopWatching: (() => void) | undefined;

  constructor(private readonly options: TRoomRelayOptions) {
    this.tickets = new TicketBook(options.appSecret, options.spentTickets);
    this.guestIds = new GuestIds(options.appSecret);
    this.passes = new AdmissionPasses(options.appSecret);
    this.downloadKeys = new DownloadKeys(options.appSecret);
    this.directory = options.directory;
    this.link = options.link;
    this.watch();
  }

  /** Points the relay at other room data or another engine (a second engine kind, or a test's local session). */
  use(ports: { directory?: RoomDirectory; link?: RoomLink }): void {
    if (ports.directory) this.directory = ports.directory;
    if (ports.link) {
      this.closeAll();
      this.link = ports.link;
      this.watch();
    }
  }

  findRoom(roomId: string): Promise<TRelayRoom | null> {
    return this.directory.find(roomId);
  }

  /** Whether the room's browser runs in this process. */
  isRunning(roomId: string): boolean {
    return this.link.session(roomId) !== undefined;
  }

  /** The running room's session on this server (the square's thumbnails are taken from it). */
  liveSession(roomId: string): RoomSession | undefined {
    return this.link.session(roomId);
  }

  /**
   * Whether the owner banned this person from the room until it stops, whichever server's hub did it: this
   * server's hub knows at once, the stored bans (read on every ask, no cache to go stale) know the others'.
   */
  async isBanned(room: TRelayRoom, identity: TJoinIdentity): Promise<boolean> {
    const hub = this.currentHub(room.id);
    if (hub?.isBanned(identity)) return true;
    const stored = await this.directory.bans?.inForce(room.id);
    return !!stored && new BanList(stored).has(identity, room.ownerId);
  }

  /**
   * Why this person may not have a ticket: banned, or removed by the owner and not let back in; null when they may.
   * A removal is the running hub's to answer where it runs here (the owner may just have let the person back in,
   * which the store learns a moment later); elsewhere the stored removals say.
   */
  async keptOut(room: TRelayRoom, identity: TJoinIdentity): Promise<'BANNED' | 'KICKED' | null> {
    if (await this.isBanned(room, identity)) return 'BANNED';
    const hub = this.currentHub(room.id);
    if (hub) return hub.keptOut(identity);
    const stored = (await this.directory.removals?.inForce(room.id)) ?? [];
    return stored.some((removal) => isRemovedBy(removal, identity, room.ownerId)) ? 'KICKED' : null;
  }

  /** Why this caller may not enter (a script with a token and maybe a password), or null when they may. */
  async entryRefusal(
    room: TRelayRoom,
    caller: { userId: string | null; ip: string },
    password: string | undefined,
  ): Promise<'ROOM_NOT_FOUND' | 'WRONG_PASSWORD' | null> {
    try {
      await checkShareAccess(this.options.rateLimiter, caller, room, password);
      return null;
    } catch (error) {
      // Too many wrong tries closes the connection like a wrong password: both mean "not with this password".
      return describeError(error).appCode === 'ROOM_NOT_FOUND' ? 'ROOM_NOT_FOUND' : 'WRONG_PASSWORD';
    }
  }

  /**
   * People in the room here (one account or guest browser on two devices is one); a hub left from an earlier run
   * of the browser does not count.
   */
  memberCount(roomId: string): number {
    return this.currentHub(roomId)?.peopleCount ?? 0;
  }

  /** People connected here, per room with anyone inside (what an agent reports to the fleet). */
  memberCounts(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const roomId of this.hubs.keys()) {
      const count = this.memberCount(roomId);
      if (count > 0) counts[roomId] = count;
    }
    return counts;
  }

  /** Who knocks at the room's door here, waiting for an answer. */
  knocks(roomId: string): TKnock[] {
    return this.currentHub(roomId)?.knocksWaiting ?? [];
  }

  /** The knocks waiting here, per room with any (what an agent reports to the fleet beside the member counts). */
  knocksByRoom(): Record<string, TKnock[]> {
    const waiting: Record<string, TKnock[]> = {};
    for (const roomId of this.hubs.keys()) {
      const knocks = this.knocks(roomId);
      if (knocks.length > 0) waiting[roomId] = knocks;
    }
    return waiting;
  }

  /** The room's hub, made on first use; a hub left from an earlier run of the room's browser is closed first. */
  async open(roomId: string): Promise<TOpenRoom> {
    const room = await this.directory.find(roomId);
    if (!room) return { ok: false, code: 'ROOM_NOT_FOUND' };
    const session = this.link.session(roomId);
    this.retireIfStale(roomId, session);
    if (!session) return { ok: false, code: 'ROOM_NOT_RUNNING' };
    let hub = this.hubs.get(roomId);
    if (!hub) {
      // A hub made for a room that already ran (its server went down) starts with the bans in force, and any hub
      // with the room's chat so far.
      const book = this.directory.bans;
      const removals = this.directory.removals;
      const chat = this.directory.chat;
      const [inForce, removed, earlier] = await Promise.all([
        book?.inForce(roomId) ?? [],
        removals?.inForce(roomId) ?? [],
        chat?.recent(roomId) ?? [],
      ]);
      const current = this.link.session(roomId);
      this.retireIfStale(roomId, current);
      if (!current) return { ok: false, code: 'ROOM_NOT_RUNNING' };
      hub = this.hubs.get(roomId);
      if (!hub) {
        hub = new RoomHub({
          room,
          session: current,
          participantsChanged: (count) => this.link.participantsChanged(roomId, count),
          log: this.options.log,
          admissionPass: (person) => this.passes.issue(roomId, person, Date.now()),
          bans: { inForce, record: book ? (marks) => book.record(roomId, marks) : undefined },
          removals: removals && {
            inForce: removed,
            record: (removal) => removals.record(roomId, removal),
            lift: (removalId) => removals.lift(roomId, removalId),
          },
          chat: {
            earlier,
            store: chat && {
              append: (records) => chat.append(roomId, records),
              forget: (authors) => chat.forget(roomId, authors),
            },
          },
          downloadKeys: this.downloadKeys,
          ...this.options.hub,
        });
        this.hubs.set(roomId, hub);
      }
    }
    return { ok: true, room, hub };
  }

  /** The room's hub for the run of its browser here now, if it has one. */
  private currentHub(roomId: string): RoomHub | undefined {
    const hub = this.hubs.get(roomId);
    return hub && hub.session === this.link.session(roomId) ? hub : undefined;
  }

  /** A hub outlives its members (kicks last while the browser runs; chat, stored, the room's life) but not its browser. */
  hub(roomId: string): RoomHub | undefined {
    return this.hubs.get(roomId);
  }

  closeAll(ending?: TRoomEnding): void {
    for (const hub of this.hubs.values()) hub.close('ROOM_NOT_RUNNING', ending);
    this.hubs.clear();
  }

  /** `ending`: what the members are told (the server shutting down says it is restarting). */
  dispose(ending?: TRoomEnding): void {
    this.stopWatching?.();
    this.closeAll(ending);
  }

  private retireIfStale(roomId: string, current: RoomSession | undefined, ending?: TRoomEnding): void {
    const hub = this.hubs.get(roomId);
    if (hub && hub.session !== current) {
      hub.close('ROOM_NOT_RUNNING', ending);
      this.hubs.delete(roomId);
    }
  }

  private watch(): void {
    this.stopWatching?.();
    this.stopWatching = this.link.onSessionEnded?.((roomId, ending) => {
      this.retireIfStale(roomId, this.link.session(roomId), ending);
    });
  }
}
