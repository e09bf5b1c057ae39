// The captcha that needs no third party. A challenge is stateless: its signature proves the server issued it and
// its salt carries the expiry, so only redeemed challenges and used pass tokens are stored (in the OnceStore).
import { createHmac, randomBytes, randomInt } from 'node:crypto';
import {
  AppError,
  type CaptchaVerifier,
  type OnceStore,
  type SelfHostedCaptcha,
  type TCaptchaChallenge,
  type TCaptchaFields,
  type TCaptchaSolution,
  ZCaptchaSolution,
} from '@rooms/api';
import { sha256Hex } from '@rooms/api/captcha';
import { hmacHex, sameSignature } from './hmac';

/**
 * The secret number is uniform in [0, maxnumber], so a client tries maxnumber / 2 hashes on average: a median
 * solve of about 0.2 s in a Chromium Web Worker and 0.3 s in Node 24 (bench/captcha-solve.ts). Enough to make
 * bulk sign-ups cost something, little enough that a person does not wait.
 */
export const DEFAULT_MAXNUMBER = 50_000;
const DEFAULT_CHALLENGE_TTL_SECONDS = 10 * 60;
const DEFAULT_PASS_TOKEN_TTL_SECONDS = 10 * 60;
const MIN_SECRET_LENGTH = 16;

const HEX_SHA256 = /^[0-9a-f]{64}$/;
const DIGITS = /^\d{1,16}$/;
const SALT_EXPIRY = /\?expires=(\d{1,15})$/;

export interface TSelfHostedCaptchaOptions {
  /** The server's secret; both signing keys are derived from it. */
  secret: string;
  onceStore: OnceStore;
  captchaId?: string;
  /** Difficulty: the largest secret number. */
  maxnumber?: number;
  challengeTtlSeconds?: number;
  /** How long the five fields stay usable after redeem. */
  passTokenTtlSeconds?: number;
  now?: () => Date;
}

function unixSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

function failed(): AppError {
  return new AppError('CAPTCHA_FAILED');
}

export class SelfHostedCaptchaService implements SelfHostedCaptcha, CaptchaVerifier {
  readonly provider = 'self-hosted' as const;
  readonly captchaId: string;
  readonly maxnumber: number;
  readonly #challengeKey: Buffer;
  readonly #passTokenKey: Buffer;
  readonly #onceStore: OnceStore;
  readonly #challengeTtl: number;
  readonly #passTokenTtl: number;
  readonly #now: () => Date;

  constructor(options: TSelfHostedCaptchaOptions) {
    if (options.secret.length < MIN_SECRET_LENGTH) {
      throw new Error(`The captcha secret must be at least ${MIN_SECRET_LENGTH} characters long`);
    }
    const maxnumber = options.maxnumber ?? DEFAULT_MAXNUMBER;
    if (!Number.isSafeInteger(maxnumber) || maxnumber < 1)
      throw new Error('maxnumber must be a positive integer');
    // Separate keys so a challenge signature, which clients see, can never pass for a pass_token.
    this.#challengeKey = createHmac('sha256', options.secret).update('rooms-captcha/challenge').digest();
    this.#passTokenKey = createHmac('sha256', options.secret).update('rooms-captcha/pass-token').digest();
    this.captchaId = options.captchaId ?? 'self-hosted';
    this.maxnumber = maxnumber;
    this.#onceStore = options.onceStore;
    this.#challengeTtl = options.challengeTtlSeconds ?? DEFAULT_CHALLENGE_TTL_SECONDS;
    this.#passTokenTtl = options.passTokenTtlSeconds ?? DEFAULT_PASS_TOKEN_TTL_SECONDS;
    this.#now = options.now ?? (() => new Date());
  }

  async createChallenge(): Promise<TCaptchaChallenge> {
    const expiresAt = unixSeconds(this.#now()) + this.#challengeTtl;
    const salt = `${randomBytes(12).toString('hex')}?expires=${expiresAt}`;
    const challenge = await sha256Hex(salt + randomInt(0, this.maxnumber + 1));
    return {
      captcha_id: this.captchaId,
      algorithm: 'SHA-256',
      salt,
      challenge,
      maxnumber: this.maxnumber,
      signature: hmacHex(this.#challengeKey, challenge),
      expires_at: expiresAt,
    };
  }

  async redeem(input: TCaptchaSolution): Promise<TCaptchaFields> {
    const parsed = ZCaptchaSolution.safeParse(input);
    if (!parsed.success) throw failed();
    const solution = parsed.data;
    if (solution.captcha_id !== this.captchaId) throw failed();
    if (!sameSignature(hmacHex(this.#challengeKey, solution.challenge), solution.signature)) throw failed();

    // The expiry needs no signature of its own: the salt is hashed into the signed challenge.
    const expiresAt = Number(SALT_EXPIRY.exec(solution.salt)?.[1] ?? 0);
    const now = unixSeconds(this.#now());
    if (expiresAt <= now) throw failed();
    if ((await sha256Hex(solution.salt + solution.number)) !== solution.challenge) throw failed();
    if (!(await this.#onceStore.claim(`challenge:${solution.challenge}`, new Date(expiresAt * 1000)))) {
      throw failed();
    }

    const fields = {
      lot_number: solution.challenge,
      captcha_output: String(solution.number),
      gen_time: String(now),
      captcha_id: this.captchaId,
    };
    return { ...fields, pass_token: this.#passToken(fields) };
  }

  async verify(fields: TCaptchaFields): Promise<void> {
    if (
      fields.captcha_id !== this.captchaId ||
      !HEX_SHA256.test(fields.lot_number) ||
      !DIGITS.test(fields.captcha_output) ||
      !DIGITS.test(fields.gen_time)
    ) {
      throw failed();
    }
    if (!sameSignature(this.#passToken(fields), fields.pass_token)) throw failed();
    const genTime = Number(fields.gen_time);
    if (unixSeconds(this.#now()) - genTime > this.#passTokenTtl) throw failed();

    const expiresAt = new Date((genTime + this.#passTokenTtl) * 1000);
    if (!(await this.#onceStore.claim(`pass_token:${fields.pass_token}`, expiresAt))) {
      throw new AppError('PASS_TOKEN_USED');
    }
  }

  /** The formats checked above keep '|' out of every part, so the joined text names one set of fields only. */
  #passToken(fields: Omit<TCaptchaFields, 'pass_token'>): string {
    const message = [fields.lot_number, fields.captcha_output, fields.gen_time, fields.captcha_id].join('|');
    return hmacHex(this.#passTokenKey, message);
  }
}
