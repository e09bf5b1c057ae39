// Changing a password: with the e-mailed code when it is forgotten (every session ends), or with the current one
// from a signed-in session (the other sessions end).
import { User } from '@rooms/db';
import type { TContext } from '../../context';
import { AppError, describeError } from '../../errors';
import type { TCaptchaFields } from '../../schemas/captcha';
import { consumeEmailCode } from './email-codes';
import { countingRedeemFailures, requireCaptcha, requireCodeCaptcha } from './guards';
import { revokeUserSessions } from './session';

/** Sets a new password with the code e-mailed for resetting it; every session of the account ends. */
export async function resetForgottenPassword(
  ctx: TContext,
  input: TCaptchaFields & { email: string; code: string; password: string },
): Promise<void> {
  await requireCodeCaptcha(ctx, input.email, 'reset', input);
  await countingRedeemFailures(ctx, async () => {
    const user = await ctx.em.findOne(User, { email: input.email });
    if (!user) throw new AppError('RESET_EMAIL_NOT_EXIST');

    await consumeEmailCode(
      ctx.em,
      ctx.services,
      { email: input.email, purpose: 'reset', code: input.code },
      { incorrect: 'RESET_CODE_INCORRECT' },
    );
    user.passwordHash = await ctx.services.passwords.hash(input.password);
    await ctx.em.flush();
    await revokeUserSessions(ctx.em, user.id, ctx.services.now());
    await ctx.services.sessionEvents.ended({ userId: user.id });
  });
}

/** The captcha as login checks it, a refused or spent one answered with the change-password form's own text. */
async function requireVerification(ctx: TContext, fields: TCaptchaFields): Promise<void> {
  try {
    await requireCaptcha(ctx, fields);
  } catch (error) {
    const { appCode } = describeError(error);
    if (appCode === 'CAPTCHA_FAILED' || appCode === 'PASS_TOKEN_USED')
      throw new AppError('VERIFICATION_INVALID');
    throw error;
  }
}

/** Changes the password of the session's user, who gives the current one; their other sessions end. */
export async function changePassword(
  ctx: TContext,
  session: { userId: string; sessionId: string },
  input: TCaptchaFields & { oldPassword: string; newPassword: string },
): Promise<void> {
  await requireVerification(ctx, input);
  const { sessionId } = session;
  const user = await ctx.em.findOneOrFail(User, session.userId);
  if (!(await ctx.services.passwords.verify(user.passwordHash, input.oldPassword))) {
    throw new AppError('INCORRECT_PASSWORD');
  }
  user.passwordHash = await ctx.services.passwords.hash(input.newPassword);
  await ctx.em.flush();
  await revokeUserSessions(ctx.em, user.id, ctx.services.now(), sessionId);
  await ctx.services.sessionEvents.ended({ userId: user.id, exceptSessionId: sessionId });
}
