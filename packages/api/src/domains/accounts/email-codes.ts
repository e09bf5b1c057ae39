// Six-digit e-mail codes: valid 10 minutes, single use, bound to one address and one purpose, at most one per
// minute, at most five wrong tries. Only the newest code of an address and purpose counts.
import type { EntityManager } from '@mikro-orm/postgresql';
import { EmailCode, type EmailCodePurpose } from '@rooms/db';
import type { TServices } from '../../context';
import { AppError, type TAppErrorCode } from '../../errors';
import { renderCodeMail } from './code-mail';
import { newEmailCode, sameHash, sha256Hex } from './tokens';

export const CODE_TTL_MS = 10 * 60 * 1000;
export const CODE_RESEND_COOLDOWN_MS = 60 * 1000;
export const CODE_MAX_WRONG_TRIES = 5;

function hashCode(email: string, purpose: EmailCodePurpose, code: string): string {
  return sha256Hex(`${purpose}:${email}:${code}`);
}

function latestCode(em: EntityManager, email: string, purpose: EmailCodePurpose): Promise<EmailCode | null> {
  return em.findOne(EmailCode, { email, purpose }, { orderBy: { createdAt: 'desc' } });
}

/**
 * Creates a code and mails it. `captchaPassToken` is the captcha that authorised the sending: the register and
 * reset calls that redeem this code may present the same captcha again (the spec's screens do).
 */
export async function sendEmailCode(
  em: EntityManager,
  services: Pick<TServices, 'mailer' | 'config' | 'now'>,
  input: { email: string; purpose: EmailCodePurpose; captchaPassToken: string },
): Promise<void> {
  const now = services.now();
  const previous = await latestCode(em, input.email, input.purpose);
  if (previous) {
    const waitMs = previous.createdAt.getTime() + CODE_RESEND_COOLDOWN_MS - now.getTime();
    if (waitMs > 0) throw new AppError('CODE_COOLDOWN', { args: [Math.ceil(waitMs / 1000)] });
  }

  const code = newEmailCode();
  const row = em.create(EmailCode, {
    id: crypto.randomUUID(),
    email: input.email,
    purpose: input.purpose,
    codeHash: hashCode(input.email, input.purpose, code),
    captchaPassTokenHash: sha256Hex(input.captchaPassToken),
    createdAt: now,
    expiresAt: new Date(now.getTime() + CODE_TTL_MS),
    failedAttempts: 0,
  });
  await em.flush();

  try {
    await services.mailer.send(
      renderCodeMail({ to: input.email, code, purpose: input.purpose, siteName: services.config.siteName }),
    );
  } catch (cause) {
    // A code nobody received must not start a cooldown.
    em.remove(row);
    await em.flush();
    throw new AppError('SEND_FAILED', { cause });
  }
}

export interface TCodeErrors {
  incorrect: TAppErrorCode;
}

/** True when this captcha pass token is the one that sent the address's newest code. */
export async function isCodeCaptcha(
  em: EntityManager,
  email: string,
  purpose: EmailCodePurpose,
  passToken: string,
): Promise<boolean> {
  const row = await latestCode(em, email, purpose);
  return (
    !!row?.captchaPassTokenHash && !row.usedAt && sameHash(row.captchaPassTokenHash, sha256Hex(passToken))
  );
}

/**
 * Checks and spends the newest code; wrong tries are counted even though the call fails. Each try claims its
 * outcome in one conditional update (a wrong one takes one of the code's tries, the right one spends the code,
 * neither once the code is used or out of tries), so tries sent at once cannot all pass the checks read before
 * any of them was written.
 */
export async function consumeEmailCode(
  em: EntityManager,
  services: TServices,
  input: { email: string; purpose: EmailCodePurpose; code: string },
  errors: TCodeErrors,
): Promise<void> {
  const now = services.now();
  const row = await latestCode(em, input.email, input.purpose);
  if (!row) throw new AppError('CODE_NOT_REQUESTED');

  const matches = sameHash(row.codeHash, hashCode(input.email, input.purpose, input.code));
  if (row.usedAt) throw new AppError(matches ? 'CODE_USED' : errors.incorrect);
  if (row.failedAttempts >= CODE_MAX_WRONG_TRIES) throw new AppError('CODE_TOO_MANY_TRIES');
  if (row.expiresAt <= now) throw new AppError('CODE_EXPIRED');
  if (!matches) {
    const [counted] = await em.execute<{ failed_attempts: number }[]>(
      `update email_codes set failed_attempts = failed_attempts + 1
       where id = ? and used_at is null and failed_attempts < ? returning failed_attempts`,
      [row.id, CODE_MAX_WRONG_TRIES],
    );
    if (counted && counted.failed_attempts < CODE_MAX_WRONG_TRIES) throw new AppError(errors.incorrect);
    if (counted) throw new AppError('CODE_TOO_MANY_TRIES');
    throw await closedCode(em, row, false, errors);
  }
  const open = { id: row.id, usedAt: null, failedAttempts: { $lt: CODE_MAX_WRONG_TRIES } };
  if ((await em.nativeUpdate(EmailCode, open, { usedAt: now })) !== 1)
    throw await closedCode(em, row, true, errors);
}

/** Why a code that passed the checks was closed before this try could claim it: used, or out of tries. */
async function closedCode(
  em: EntityManager,
  row: EmailCode,
  matches: boolean,
  errors: TCodeErrors,
): Promise<AppError> {
  const current = await em.findOne(EmailCode, row.id, { refresh: true });
  if (current?.usedAt) return new AppError(matches ? 'CODE_USED' : errors.incorrect);
  return new AppError('CODE_TOO_MANY_TRIES');
}
