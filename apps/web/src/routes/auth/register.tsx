import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@rooms/ui/button';
import { Checkbox } from '@rooms/ui/checkbox';
import { Input } from '@rooms/ui/input';
import { Spinner } from '@rooms/ui/spinner';
import { createFileRoute, Link, useRouter } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { CaptchaWidget } from '../../components/captcha/captcha-widget';
import { useCaptcha } from '../../components/captcha/use-captcha';
import { PasswordInput } from '../../components/password-input';
import { PasswordMeter } from '../../components/password-meter';
import { useCountdown } from '../../hooks/use-countdown';
import { CODE_COOLDOWN_SECONDS, cooldownFromError } from '../../lib/codes';
import { redirectIfLoggedIn } from '../../lib/guard';
import { toastError, toastIssue, toastSuccess } from '../../lib/notify';
import { validateRegister, validateSendCode } from '../../lib/password';
import { safeRedirect, saveSession } from '../../lib/session';
import { trpcClient } from '../../lib/trpc';
import { AuthShell, Field } from './-components/auth-shell';
import { DevMailboxHint } from './-components/dev-mailbox-hint';
import { SendCodeButton } from './-components/send-code-button';

export const Route = createFileRoute('/auth/register')({
  validateSearch: (search: Record<string, unknown>): { redirect?: string } =>
    typeof search.redirect === 'string' ? { redirect: search.redirect } : {},
  beforeLoad: redirectIfLoggedIn,
  staticData: { title: msg`Register` },
  component: RegisterPage,
});

function RegisterPage() {
  const { i18n, t } = useLingui();
  const router = useRouter();
  const { redirect } = Route.useSearch();
  const captcha = useCaptcha();
  const countdown = useCountdown();
  const [form, setForm] = useState({ username: '', email: '', password: '', confirm: '', code: '' });
  const [agreed, setAgreed] = useState(false);
  const [codeRequested, setCodeRequested] = useState(false);
  const [sending, setSending] = useState(false);
  const [pending, setPending] = useState(false);
  const set = (key: keyof typeof form) => (event: { target: { value: string } }) =>
    setForm((current) => ({ ...current, [key]: event.target.value }));

  async function sendCode() {
    if (countdown.remaining > 0) return;
    const issue = validateSendCode({ email: form.email, captchaDone: captcha.done });
    if (issue) return toastIssue(i18n, issue);
    const fields = captcha.consume();
    if (!fields) return toastIssue(i18n, 'captcha-required');
    setSending(true);
    try {
      const reply = await trpcClient.user.sendRegisterCode.mutate({ email: form.email.trim(), ...fields });
      setCodeRequested(true);
      countdown.start(reply.cooldownSeconds || CODE_COOLDOWN_SECONDS);
      toastSuccess(i18n, t`The verification code has been sent to your e-mail`);
    } catch (error) {
      const cooldown = cooldownFromError(error);
      if (cooldown) countdown.start(cooldown);
      toastError(i18n, error, { unreachable: t`Error occurred while sending the verification code` });
    } finally {
      setSending(false);
      // Registering needs a captcha of its own.
      captcha.renew();
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const issue = validateRegister({ ...form, codeRequested, agreed, captchaDone: captcha.done });
    if (issue) return toastIssue(i18n, issue);
    const fields = captcha.consume();
    if (!fields) return toastIssue(i18n, 'captcha-required');
    setPending(true);
    try {
      const session = await trpcClient.user.register.mutate({
        username: form.username.trim(),
        email: form.email.trim(),
        password: form.password,
        code: form.code.trim(),
        ...fields,
      });
      saveSession(session);
      toastSuccess(i18n, t`Registration successful`);
      router.history.replace(safeRedirect(redirect));
    } catch (error) {
      toastError(i18n, error, {
        prefix: t`Registration failed:`,
        unreachable: t`Error occurred during registration`,
      });
      captcha.renew();
    } finally {
      setPending(false);
    }
  }

  return (
    <AuthShell
      title={<Trans>Create your account</Trans>}
      description={<Trans>Rooms are free to start.</Trans>}
    >
      <form className="grid gap-4" onSubmit={submit} noValidate>
        <Field label={<Trans>Username</Trans>} htmlFor="username">
          <Input id="username" autoComplete="username" value={form.username} onChange={set('username')} />
        </Field>
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
        <Field label={<Trans>Password</Trans>} htmlFor="password">
          <PasswordInput
            id="password"
            autoComplete="new-password"
            value={form.password}
            onChange={set('password')}
          />
          <PasswordMeter password={form.password} />
        </Field>
        <Field label={<Trans>Confirm password</Trans>} htmlFor="confirm">
          <PasswordInput
            id="confirm"
            autoComplete="new-password"
            value={form.confirm}
            onChange={set('confirm')}
          />
        </Field>
        <CaptchaWidget captcha={captcha} />
        <Field label={<Trans>Email code</Trans>} htmlFor="code">
          <div className="flex gap-2">
            <Input
              id="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              value={form.code}
              onChange={set('code')}
            />
            <SendCodeButton remaining={countdown.remaining} pending={sending} onSend={sendCode} />
          </div>
          <DevMailboxHint />
        </Field>
        <div className="flex items-start gap-2 text-sm">
          <Checkbox
            id="terms"
            checked={agreed}
            onCheckedChange={(value) => setAgreed(value === true)}
            data-testid="terms"
            className="mt-0.5"
          />
          <label htmlFor="terms" className="text-muted-foreground">
            <Trans>
              I have read and agree to the{' '}
              <Link to="/" hash="terms" className="text-primary hover:underline">
                Terms of Service
              </Link>
            </Trans>
          </label>
        </div>
        <Button type="submit" size="lg" disabled={pending} data-testid="register-submit">
          {pending ? <Spinner /> : null}
          <Trans>Register</Trans>
        </Button>
        <p className="text-center text-muted-foreground text-sm">
          <Trans>Already have an account?</Trans>{' '}
          <Link
            to="/auth/login"
            search={redirect ? { redirect } : {}}
            className="text-primary hover:underline"
          >
            <Trans>Log in</Trans>
          </Link>
        </p>
      </form>
    </AuthShell>
  );
}
