// What a room hub's message handlers share: the members who joined, and how the hub speaks to them. The hub
// (./room-hub.ts) routes each message by its domain, the part of its type before the slash (`control/grant`
// goes to ./control), as packages/api/src/room-protocol names them.
import type { TClientMessage, TMember, TRoomErrorCode, TServerMessage } from '@rooms/api/room-protocol';
import type { TRelayRoom } from '../../ws/relay-ports';
import { errorMessage } from './error-message';
import type { MediaPeer } from './media-fanout';

export interface HubPeer extends MediaPeer {
  /** `serialized` is the message's JSON when the sender already has it (a broadcast serializes once). */
  send(message: TServerMessage, serialized?: string): void;
  close(code: number, reason: string): void;
}

/** Who is behind a connection: a signed-in user, or a guest (null) who came by a shared link. */
export interface TJoinIdentity {
  userId: string | null;
  /** A guest's browser, from the signed cookie of POST /ws/ticket: what a ban holds on to besides the address. */
  guestId?: string | null;
  /** The connection's address; a ban covers it, so a fresh browser profile does not get around it. */
  ip?: string | null;
  /** The session a signed-in connection was opened with: when it ends, the connection ends (ConnectionBook). */
  sessionId?: string | null;
  /** Came with a knock ticket: their member/join waits for the owner's answer (./knock). */
  knock?: boolean;
}

/** A joined member as the hub keeps it. */
export interface THubMember {
  info: TMember;
  userId: string | null;
  identity: TJoinIdentity;
  peer: HubPeer;
  /** When this member was last told it is not in control, so a stray pointer stream yields one error a second. */
  lastRefusedAt: number;
}

export interface THubContext {
  readonly room: TRelayRoom;
  /** The joined members, by member id, in the order they joined. */
  readonly members: ReadonlyMap<string, THubMember>;
  now(): number;
  /** Sends the message to every member, serialized once. */
  broadcast(message: TServerMessage): void;
  /** A warning in the server's log, about this room. */
  warn(err: unknown, what: string): void;
}

/** Tells the member that its message (`about`, a message type) was refused, and why. */
export function refuse(member: THubMember, code: TRoomErrorCode, about: string): void {
  member.peer.send(errorMessage(code, about));
}

type TDomainOf<T extends string> = T extends `${infer D}/${string}` ? D : never;
/** The domains of what members send: member, control, chat, input, browser, pointer, reaction, stream, system. */
export type TClientDomain = TDomainOf<TClientMessage['type']>;
/** The messages of one domain. */
export type TDomainMessage<D extends TClientDomain> = Extract<TClientMessage, { type: `${D}/${string}` }>;
export type TDomainHandler<D extends TClientDomain> = (
  member: THubMember,
  message: TDomainMessage<D>,
) => void;
/** Who handles each domain in the hub; a domain with none is not the hub's (system/ping is the socket's). */
export type TDomainHandlers = { [D in TClientDomain]?: TDomainHandler<D> };

export function domainOf(message: TClientMessage): TClientDomain {
  return message.type.slice(0, message.type.indexOf('/')) as TClientDomain;
}
