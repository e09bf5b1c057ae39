import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@rooms/ui/button';
import { Input } from '@rooms/ui/input';
import { Spinner } from '@rooms/ui/spinner';
import { createFileRoute, Link, useRouter } from '@tanstack/react-router';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { CaptchaWidget } from '../../components/captcha/captcha-widget';
import { useCaptcha } from '../../components/captcha/use-captcha';
import { PasswordInput } from '../../components/password-input';
import { redirectIfLoggedIn } from '../../lib/guard';
import { toastError, toastIssue } from '../../lib/notify';
import { validateLogin } from '../../lib/password';
import { safeRedirect, saveSession } from '../../lib/session';
import { trpcClient } from '../../lib/trpc';
import { AuthShell, Field } from './-components/auth-shell';

export const Route = createFileRoute('/auth/login')({
  validateSearch: (search: Record<string, unknown>): { redirect?: string } =>
    typeof search.redirect === 'string' ? { redirect: search.redirect } : {},
  beforeLoad: redirectIfLoggedIn,
  staticData: { title: msg`Log in` },
  component: LoginPage,
});

function LoginPage() {
  const { i18n, t } = useLingui();
  const router = useRouter();
  const { redirect } = Route.useSearch();
  const captcha = useCaptcha();
  const form = useForm({ defaultValues: { email: '', password: '' } });
  const [pending, setPending] = useState(false);

  async function submit({ email, password }: { email: string; password: string }) {
    const issue = validateLogin({ email, password, captchaDone: captcha.done });
    if (issue) return toastIssue(i18n, issue);
    const fields = captcha.consume();
    if (!fields) return toastIssue(i18n, 'captcha-required');
    setPending(true);
    try {
      const session = await trpcClient.user.login.mutate({ email: email.trim(), password, ...fields });
      saveSession(session);
      router.history.replace(safeRedirect(redirect));
    } catch (error) {
      toastError(i18n, error, { prefix: t`Login failed:`, unreachable: t`Error occurred during login` });
      // The pass_token was spent either way; the next attempt needs a fresh captcha.
      captcha.renew();
    } finally {
      setPending(false);
    }
  }

  return (
    <AuthShell
      title={<Trans>Welcome back</Trans>}
      description={<Trans>Log in with your e-mail address.</Trans>}
    >
      <form className="grid gap-4" onSubmit={form.handleSubmit(submit)} noValidate>
        <Field label={<Trans>Email</Trans>} htmlFor="email">
          <Input
            id="email"
            type="email"
            autoComplete="email"
            placeholder="you@example.com"
            {...form.register('email')}
          />
        </Field>
        <Field label={<Trans>Password</Trans>} htmlFor="password">
          <PasswordInput id="password" autoComplete="current-password" {...form.register('password')} />
        </Field>
        <CaptchaWidget captcha={captcha} />
        <div className="flex justify-end text-sm">
          <Link to="/auth/reset-password" className="text-primary underline underline-offset-4">
            <Trans>Forgot password?</Trans>
          </Link>
        </div>
        <Button type="submit" size="lg" disabled={pending} data-testid="login-submit">
          {pending ? <Spinner /> : null}
          <Trans>Log in</Trans>
        </Button>
        <p className="text-center text-muted-foreground text-sm">
          <Trans>No account yet?</Trans>{' '}
          <Link
            to="/auth/register"
            search={redirect ? { redirect } : {}}
            className="text-primary underline underline-offset-4"
          >
            <Trans>Register</Trans>
          </Link>
        </p>
      </form>
    </AuthShell>
  );
}
