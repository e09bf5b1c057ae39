import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@rooms/ui/button';
import { Input } from '@rooms/ui/input';
import { Spinner } from '@rooms/ui/spinner';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { CaptchaWidget } from '../../components/captcha/captcha-widget';
import { useCaptcha } from '../../components/captcha/use-captcha';
import { RESET_REDIRECT_DELAY_MS } from '../../lib/codes';
import { toastError, toastIssue, toastSuccess } from '../../lib/notify';
import { validateReset } from '../../lib/password';
import { trpcClient } from '../../lib/trpc';
import { AuthShell, Field } from './-components/auth-shell';
import { EmailCodeField, NewPasswordFields } from './-components/code-fields';
import { useEmailCode } from './-components/use-email-code';

export const Route = createFileRoute('/auth/reset-password')({
  staticData: { title: msg`Reset password` },
  component: ResetPasswordPage,
});

function ResetPasswordPage() {
  const { i18n, t } = useLingui();
  const navigate = useNavigate();
  const captcha = useCaptcha();
  const emailCode = useEmailCode(captcha, (request) => trpcClient.user.sendResetPasswordCode.mutate(request));
  const [form, setForm] = useState({ email: '', code: '', password: '', confirm: '' });
  const [pending, setPending] = useState(false);
  const [done, setDone] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const set = (key: keyof typeof form) => (event: { target: { value: string } }) =>
    setForm((current) => ({ ...current, [key]: event.target.value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const issue = validateReset({ ...form, codeRequested: emailCode.requested, captchaDone: captcha.done });
    if (issue) return toastIssue(i18n, issue);
    const fields = captcha.consume();
    if (!fields) return toastIssue(i18n, 'code-first');
    setPending(true);
    try {
      await trpcClient.user.resetPassword.mutate({
        email: form.email.trim(),
        code: form.code.trim(),
        password: form.password,
        ...fields,
      });
      setDone(true);
      toastSuccess(i18n, t`Password reset successfully, please log in`);
      timer.current = setTimeout(() => void navigate({ to: '/auth/login' }), RESET_REDIRECT_DELAY_MS);
    } catch (error) {
      toastError(i18n, error, { prefix: t`Password reset failed:`, unreachable: t`reset failed` });
      captcha.renew();
    } finally {
      setPending(false);
    }
  }

  return (
    <AuthShell
      title={<Trans>Reset password</Trans>}
      description={<Trans>We will e-mail you a code to set a new password.</Trans>}
    >
      <form className="grid gap-4" onSubmit={submit} noValidate>
        <Field label={<Trans>Email</Trans>} htmlFor="email">
          <Input
            id="email"
            type="email"
            autoComplete="email"
            value={form.email}
            onChange={set('email')}
            placeholder="you@example.com"
          />
        </Field>
        <CaptchaWidget captcha={captcha} />
        <EmailCodeField
          value={form.code}
          onChange={set('code')}
          emailCode={emailCode}
          onSend={() => emailCode.send(form.email)}
        />
        <NewPasswordFields
          label={<Trans>New password</Trans>}
          password={form.password}
          confirm={form.confirm}
          onPassword={set('password')}
          onConfirm={set('confirm')}
        />
        <div className="grid grid-cols-2 gap-2">
          <Button variant="outline" size="lg" asChild>
            <Link to="/auth/login">
              <Trans>Back to login</Trans>
            </Link>
          </Button>
          <Button type="submit" size="lg" disabled={pending || done} data-testid="reset-submit">
            {pending ? <Spinner /> : null}
            <Trans>Reset password</Trans>
          </Button>
        </div>
      </form>
    </AuthShell>
  );
}
