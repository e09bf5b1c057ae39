// A participant as the web page is one (apps/web/src/lib/room/room-connection.ts), for tests of the fleet: a ticket
// from the control plane (its session token, or as a guest keeping the cookie it is given), the socket through a
// gateway with our Origin, the join, the picture; when the room goes away restarting, it asks again on the page's
// rejoin schedule (room-protocol's rejoinDelayMs), honours a refusal's Retry-After, and counts the tickets it spent.
import {
  ROOM_CLOSE_CODES,
  ROOM_TICKET_PATH,
  rejoinDelayMs,
  retryAfterMs,
  roomSocketPath,
  type TMediaCodecName,
} from '@rooms/api/room-protocol';
import { RoomClient } from './room-client';

export interface TPageParticipantOptions {
  /** Where tickets are asked for: the control plane. */
  controlUrl: string;
  /** The gateways' base URLs (http://…), tried in turn. */
  gatewayUrls: string[];
  /** The Origin the page is served from (the install's PUBLIC_URL). */
  origin: string;
  roomId: string;
  nickname: string;
  /** A signed-in page's session token; a guest without. */
  token?: string;
  /** What the page can decode; without, the server's default for a page that says nothing (pictures as JPEG). */
  decoders?: TMediaCodecName[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class PageParticipant {
  client: RoomClient | undefined;
  /** Tickets asked for since the last `resetCount` (each ask spends one of the browser's budget). */
  asks = 0;
  /** Refusals for asking too often. */
  refusals = 0;
  private cookie: string | undefined;
  private gateway = 0;

  constructor(private readonly options: TPageParticipantOptions) {}

  get nickname(): string {
    return this.options.nickname;
  }

  /** Joins and waits for the picture; throws when the room does not let it in within `timeoutMs`. */
  async enter(timeoutMs = 30_000): Promise<void> {
    const entered = await this.tryEnter(timeoutMs);
    if (entered !== 'in') throw new Error(`${this.options.nickname} could not enter: ${entered}`);
  }

  /**
   * After its socket closed because the room is restarting: waits and asks again as the page does until it has a
   * picture again. Resolves when the first picture arrives; rejects after `timeoutMs`.
   */
  async rejoin(timeoutMs: number): Promise<void> {
    const since = Date.now();
    const deadline = since + timeoutMs;
    let asked = 0;
    for (;;) {
      await sleep(rejoinDelayMs(asked++, Date.now() - since, true));
      const outcome = await this.tryEnter(Math.max(1, deadline - Date.now()));
      if (outcome === 'in') return;
      if (typeof outcome === 'number') await sleep(outcome);
      if (Date.now() > deadline) throw new Error(`${this.options.nickname} not back after ${timeoutMs} ms`);
    }
  }

  /** Resolves once the socket closed, with its code. */
  async closed(): Promise<number> {
    const client = this.client;
    if (!client) throw new Error('not in the room');
    return (await client.closedWith()).code;
  }

  close(): void {
    this.client?.close();
  }

  /** One ask and, with a ticket, one socket: 'in' with a picture, a wait (ms) when refused, else why not. */
  private async tryEnter(timeoutMs: number): Promise<'in' | 'not-running' | number> {
    this.asks += 1;
    const response = await fetch(`${this.options.controlUrl}${ROOM_TICKET_PATH}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(this.options.token ? { authorization: this.options.token } : {}),
      },
      body: JSON.stringify({ roomId: this.options.roomId }),
    });
    const cookie = response.headers.getSetCookie()[0]?.split(';')[0];
    if (cookie) this.cookie = cookie;
    const body = (await response.json().catch(() => null)) as { ticket?: string; data?: string } | null;
    if (response.status === 429) {
      this.refusals += 1;
      return retryAfterMs(response.headers.get('retry-after')) ?? 1000;
    }
    if (response.status === 409) return 'not-running';
    if (!response.ok || !body?.ticket) throw new Error(`ticket refused: ${response.status} ${body?.data}`);

    const base = this.options.gatewayUrls[this.gateway++ % this.options.gatewayUrls.length] as string;
    const url = `${base.replace(/^http/, 'ws')}${roomSocketPath(this.options.roomId)}?ticket=${encodeURIComponent(body.ticket)}`;
    let client: RoomClient;
    try {
      client = await RoomClient.connect(url, { origin: this.options.origin });
    } catch {
      return 'not-running';
    }
    client.send({
      type: 'member/join',
      nickname: this.options.nickname,
      ...(this.options.decoders ? { decoders: this.options.decoders } : {}),
    });
    try {
      await client.until(
        () => client.frames.length > 0 || client.closed !== undefined,
        'the picture',
        timeoutMs,
      );
    } catch {
      client.close();
      return 'not-running';
    }
    if (client.closed) {
      if (client.closed.code !== ROOM_CLOSE_CODES.ROOM_NOT_RUNNING)
        throw new Error(`closed with ${client.closed.code} ${client.closed.reason}`);
      return 'not-running';
    }
    this.client = client;
    return 'in';
  }
}
