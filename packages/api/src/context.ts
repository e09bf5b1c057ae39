import type { EntityManager } from '@mikro-orm/postgresql';
import type { TSessionUser } from './domains/accounts/session';
import type { SessionCache } from './domains/accounts/session-cache';
import type { BalanceCache } from './domains/billing/ledger';
import type { RoomListCache } from './domains/rooms/room-list-cache';
import type { NodeMonitor } from './services/node-monitor';
import type { PaymentGateway } from './services/payments';
import type {
  CaptchaVerifier,
  Mailer,
  PasswordHasher,
  RateLimiter,
  RoomPresence,
  SecretBox,
  SessionEvents,
} from './services/ports';
import type { RoomEngine } from './services/room-engine';
import type { SelfHostedCaptcha } from './services/self-hosted-captcha';

export interface TApiConfig {
  /** The public address of the site, used in e-mails. */
  publicUrl: string;
  /** Where share links point (getShareDomain): a separate domain for shared rooms, or publicUrl. */
  shareUrl: string;
  /**
   * Which of the two the operator set (PUBLIC_URL, SHARE_URL). One left unset follows the address each request
   * came by in links shown on screen (see site-urls.ts), so a server opened as http://192.168.1.5:3000 does not
   * hand out links to localhost.
   */
  fixed?: { publicUrl: boolean; shareUrl: boolean };
  /** The product name shown in e-mails. */
  siteName: string;
  /** Where people write for help (SUPPORT_EMAIL), shown on the About page; null: none is given. */
  supportEmail: string | null;
}

/** Everything long-lived a procedure may use; built once by the server. */
export interface TServices {
  config: TApiConfig;
  mailer: Mailer;
  captcha: CaptchaVerifier;
  /** Present when the self-hosted captcha is the configured provider. */
  selfHostedCaptcha: SelfHostedCaptcha | null;
  passwords: PasswordHasher;
  /** Seals share passwords for their owner's view. */
  secretBox: SecretBox;
  rateLimiter: RateLimiter;
  /** The browsers of the rooms this server runs. */
  rooms: RoomEngine;
  /** This server's load, for /serverstate. */
  node: NodeMonitor;
  /** The fleet agents this server registered as (its own rows /serverstate shows live, not as last reported). */
  ownAgents(): ReadonlySet<string>;
  /** Member counts of running rooms, for the public square. */
  presence: RoomPresence;
  /** Told when sessions end, so the room sockets opened with them close, and when accounts change. */
  sessionEvents: SessionEvents;
  /** Resolved sessions reused for a few seconds (resolveSession's cache). */
  sessionCache: SessionCache;
  /** Committed balances reused between reads (committedBalanceCents's cache). */
  balanceCache: BalanceCache;
  /** The dashboards' room lists reused between polls (listOwnedRooms's cache). */
  roomListCache: RoomListCache;
  /** The payment providers on offer (recharge, refresh). */
  payments: PaymentGateway;
  now(): Date;
}

/** Who is calling, built per request. */
export interface TRequestInfo {
  ip: string;
  userAgent: string | null;
  /** The raw session token from the Authorization header, if any. */
  token: string | null;
  /** The site as this request reached it (`http://192.168.1.5:3000`), when its Host header is well formed. */
  origin?: string | null;
}

export interface TContext {
  em: EntityManager;
  services: TServices;
  request: TRequestInfo;
  /** The signed-in user, resolved from the token; null when the token is missing, unknown or expired. */
  session: TSessionUser | null;
}
