// Checks a solved GeeTest v4 captcha with GeeTest's server ("secondary validation"). GeeTest's own SDKs let a
// request through when GeeTest cannot be reached; this one fails closed, because the captcha guards logins.
import { createHash } from 'node:crypto';
import {
  AppError,
  type CaptchaVerifier,
  type OnceStore,
  type TAppErrorCode,
  type TCaptchaFields,
} from '@rooms/api';
import { z } from 'zod';
import { hmacHex } from './hmac';

export const GEETEST_API_SERVER = 'https://gcaptcha4.geetest.com';
const DEFAULT_TIMEOUT_MS = 5000;

/** GeeTest does not publish how long a pass_token lives; a day outlasts it by far. */
const CLAIM_LIFETIME_MS = 24 * 60 * 60 * 1000;

// GeeTest answers `{ result, reason, captcha_args }` when it judged the captcha, and `{ status: 'error', code,
// msg }` when it could not (docs.geetest.com/gt4/apirefer/errorcode/server).
const ZValidateReply = z.union([
  z.object({ result: z.enum(['success', 'fail']), reason: z.string().optional() }),
  z.object({ status: z.literal('error'), code: z.coerce.string(), msg: z.string().optional() }),
]);

/** Error codes caused by the fields the client sent, as opposed to our id, key or GeeTest itself. */
const CLIENT_ERRORS = new Map<string, TAppErrorCode>([
  ['-50002', 'CAPTCHA_FAILED'], // param decrypt error
  ['-50003', 'PASS_TOKEN_USED'], // illegal verify: validated before
  ['-50005', 'CAPTCHA_FAILED'], // illegal gen_time
  ['-50301', 'CAPTCHA_FAILED'], // not proof: the lot_number is unknown or its cache expired
  ['-50302', 'CAPTCHA_FAILED'],
  ['-50303', 'CAPTCHA_FAILED'],
  ['-50304', 'CAPTCHA_FAILED'],
  ['-50305', 'CAPTCHA_FAILED'],
  ['-50306', 'CAPTCHA_FAILED'],
  ['-50307', 'CAPTCHA_FAILED'],
  ['-50308', 'CAPTCHA_FAILED'],
]);

export interface TGeetestCaptchaOptions {
  captchaId: string;
  captchaKey: string;
  apiServer?: string;
  timeoutMs?: number;
  onceStore: OnceStore;
  now?: () => Date;
}

export class GeetestCaptcha implements CaptchaVerifier {
  readonly provider = 'geetest' as const;
  readonly captchaId: string;
  readonly #captchaKey: string;
  readonly #validateUrl: URL;
  readonly #timeoutMs: number;
  readonly #onceStore: OnceStore;
  readonly #now: () => Date;

  constructor(options: TGeetestCaptchaOptions) {
    this.captchaId = options.captchaId;
    this.#captchaKey = options.captchaKey;
    this.#validateUrl = new URL('/validate', options.apiServer ?? GEETEST_API_SERVER);
    this.#validateUrl.searchParams.set('captcha_id', options.captchaId);
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#onceStore = options.onceStore;
    this.#now = options.now ?? (() => new Date());
  }

  async verify(fields: TCaptchaFields): Promise<void> {
    if (fields.captcha_id !== this.captchaId) throw new AppError('CAPTCHA_FAILED');

    const reply = await this.#validate(fields);
    if ('status' in reply) {
      // Other codes (an unknown or paused captcha_id, GeeTest's runtime error) are ours to fix, not the user's.
      const code = CLIENT_ERRORS.get(reply.code);
      throw new AppError(code ?? 'CAPTCHA_UNAVAILABLE', {
        cause: new Error(`GeeTest error ${reply.code}: ${reply.msg ?? ''}`),
      });
    }
    if (reply.result === 'fail') {
      throw new AppError('CAPTCHA_FAILED', { cause: new Error(`GeeTest: ${reply.reason ?? 'fail'}`) });
    }

    // Claimed only after GeeTest vouches for the token, so junk tokens never reach the store. Hashed because the
    // token's length is the client's choice.
    const key = `geetest:${createHash('sha256').update(fields.pass_token).digest('hex')}`;
    const expiresAt = new Date(this.#now().getTime() + CLAIM_LIFETIME_MS);
    if (!(await this.#onceStore.claim(key, expiresAt))) throw new AppError('PASS_TOKEN_USED');
  }

  async #validate(fields: TCaptchaFields): Promise<z.infer<typeof ZValidateReply>> {
    const form = new URLSearchParams({
      lot_number: fields.lot_number,
      captcha_output: fields.captcha_output,
      pass_token: fields.pass_token,
      gen_time: fields.gen_time,
      sign_token: hmacHex(this.#captchaKey, fields.lot_number),
    });
    let body: unknown;
    try {
      // The timeout signal also covers reading the body, so a server that stalls mid-reply is cut off too.
      const response = await fetch(this.#validateUrl, {
        method: 'POST',
        body: form,
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
      if (!response.ok) {
        await response.body?.cancel();
        throw new Error(`GeeTest answered HTTP ${response.status}`);
      }
      body = await response.json();
    } catch (error) {
      throw new AppError('CAPTCHA_UNAVAILABLE', { cause: error });
    }
    const reply = ZValidateReply.safeParse(body);
    if (!reply.success) {
      throw new AppError('CAPTCHA_UNAVAILABLE', {
        cause: new Error(`Unexpected GeeTest reply: ${JSON.stringify(body)}`),
      });
    }
    return reply.data;
  }
}
