import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@rooms/ui/button';
import { Checkbox } from '@rooms/ui/checkbox';
import { Input } from '@rooms/ui/input';
import { Spinner } from '@rooms/ui/spinner';
import { createFileRoute, Link, useRouter } from '@tanstack/react-router';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { CaptchaWidget } from '../../components/captcha/captcha-widget';
import { useCaptcha } from '../../components/captcha/use-captcha';
import { redirectIfLoggedIn } from '../../lib/guard';
import { toastError, toastIssue, toastSuccess } from '../../lib/notify';
import { validateRegister } from '../../lib/password';
import { safeRedirect, saveSession } from '../../lib/session';
import { trpcClient } from '../../lib/trpc';
import { AuthShell, Field } from './-components/auth-shell';
import { EmailCodeField, NewPasswordFields } from './-components/code-fields';
import { useEmailCode } from './-components/use-email-code';

export const Route = createFileRoute('/auth/register')({
  validateSearch: (search: Record<string, unknown>): { redirect?: string } =>
    typeof search.redirect === 'string' ? { redirect: search.redirect } : {},
  beforeLoad: redirectIfLoggedIn,
  staticData: { title: msg`Register` },
  component: RegisterPage,
});

interface TRegisterForm {
  username: string;
  email: string;
  password: string;
  confirm: string;
  code: string;
  agreed: boolean;
}

function RegisterPage() {
  const { i18n, t } = useLingui();
  const router = useRouter();
  const { redirect } = Route.useSearch();
  const captcha = useCaptcha();
  const emailCode = useEmailCode(captcha, (request) => trpcClient.user.sendRegisterCode.mutate(request));
  const form = useForm({
    defaultValues: { username: '', email: '', password: '', confirm: '', code: '', agreed: false },
  });
  const [pending, setPending] = useState(false);

  async function submit(values: TRegisterForm) {
    const issue = validateRegister({
      ...values,
      codeRequested: emailCode.requested,
      captchaDone: captcha.done,
    });
    if (issue) return toastIssue(i18n, issue);
    const fields = captcha.consume();
    if (!fields) return toastIssue(i18n, 'captcha-required');
    setPending(true);
    try {
      const session = await trpcClient.user.register.mutate({
        username: values.username.trim(),
        email: values.email.trim(),
        password: values.password,
        code: values.code.trim(),
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
      <form className="grid gap-4" onSubmit={form.handleSubmit(submit)} noValidate>
        <Field label={<Trans>Username</Trans>} htmlFor="username">
          <Input id="username" autoComplete="username" {...form.register('username')} />
        </Field>
        <Field label={<Trans>Email</Trans>} htmlFor="email">
          <Input
            id="email"
            type="email"
            autoComplete="email"
            placeholder="you@example.com"
            {...form.register('email')}
          />
        </Field>
        <NewPasswordFields
          label={<Trans>Password</Trans>}
          password={form.register('password')}
          confirm={form.register('confirm')}
          typed={form.watch('password')}
        />
        <CaptchaWidget captcha={captcha} />
        <EmailCodeField
          field={form.register('code')}
          emailCode={emailCode}
          onSend={() => emailCode.send(form.getValues('email'))}
        />
        <div className="flex items-start gap-2 text-sm">
          <Controller
            control={form.control}
            name="agreed"
            render={({ field }) => (
              <Checkbox
                id="terms"
                checked={field.value}
                onCheckedChange={(value) => field.onChange(value === true)}
                data-testid="terms"
                className="mt-0.5"
              />
            )}
          />
          <label htmlFor="terms" className="text-muted-foreground">
            <Trans>
              I have read and agree to the{' '}
              <Link to="/" hash="terms" className="text-primary underline underline-offset-4">
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
            className="text-primary underline underline-offset-4"
          >
            <Trans>Log in</Trans>
          </Link>
        </p>
      </form>
    </AuthShell>
  );
}
