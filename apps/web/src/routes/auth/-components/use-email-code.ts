// Sending an e-mail code from the register and reset forms: checks the address and the captcha,
// spends the captcha on the send, starts the 60 s cooldown, and renews the captcha for the form's own submit.
import { useLingui } from '@lingui/react/macro';
import type { TCaptchaFields } from '@rooms/api/client';
import { useState } from 'react';
import type { TCaptcha } from '../../../components/captcha/use-captcha';
import { useCountdown } from '../../../hooks/use-countdown';
import { CODE_COOLDOWN_SECONDS, cooldownFromError } from '../../../lib/codes';
import { toastError, toastIssue, toastSuccess } from '../../../lib/notify';
import { validateSendCode } from '../../../lib/password';

export type TSendCode = (request: TCaptchaFields & { email: string }) => Promise<{ cooldownSeconds: number }>;

export function useEmailCode(captcha: TCaptcha, sendCode: TSendCode) {
  const { i18n, t } = useLingui();
  const countdown = useCountdown();
  const [requested, setRequested] = useState(false);
  const [sending, setSending] = useState(false);

  async function send(email: string) {
    if (countdown.remaining > 0) return;
    const issue = validateSendCode({ email, captchaDone: captcha.done });
    if (issue) return toastIssue(i18n, issue);
    const fields = captcha.consume();
    if (!fields) return toastIssue(i18n, 'captcha-required');
    setSending(true);
    try {
      const reply = await sendCode({ email: email.trim(), ...fields });
      setRequested(true);
      countdown.start(reply.cooldownSeconds || CODE_COOLDOWN_SECONDS);
      toastSuccess(i18n, t`The verification code has been sent to your e-mail`);
    } catch (error) {
      const cooldown = cooldownFromError(error);
      if (cooldown) countdown.start(cooldown);
      toastError(i18n, error, { unreachable: t`Error occurred while sending the verification code` });
    } finally {
      setSending(false);
      // The form's own submit needs a captcha of its own.
      captcha.renew();
    }
  }

  return { remaining: countdown.remaining, requested, sending, send };
}

export type TEmailCode = ReturnType<typeof useEmailCode>;
