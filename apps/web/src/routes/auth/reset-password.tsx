import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@rooms/ui/button';
import { Input } from '@rooms/ui/input';
import { Spinner } from '@rooms/ui/spinner';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
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
  const form = useForm({ defaultValues: { email: '', code: '', password: '', confirm: '' } });
  const [pending, setPending] = useState(false);
  const [done, setDone] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function submit(values: { email: string; code: string; password: string; confirm: string }) {
    const issue = validateReset({ ...values, codeRequested: emailCode.requested, captchaDone: captcha.done });
    if (issue) return toastIssue(i18n, issue);
    const fields = captcha.consume();
    if (!fields) return toastIssue(i18n, 'code-first');
    setPending(true);
    try {
      await trpcClient.user.resetPassword.mutate({
        email: values.email.trim(),
        code: values.code.trim(),
        password: values.password,
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
        <CaptchaWidget captcha={captcha} />
        <EmailCodeField
          field={form.register('code')}
          emailCode={emailCode}
          onSend={() => emailCode.send(form.getValues('email'))}
        />
        <NewPasswordFields
          label={<Trans>New password</Trans>}
          password={form.register('password')}
          confirm={form.register('confirm')}
          typed={form.watch('password')}
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
