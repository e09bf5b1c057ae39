import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge } from '@rooms/ui/badge';
import { Button } from '@rooms/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@rooms/ui/card';
import { Spinner } from '@rooms/ui/spinner';
import { createFileRoute } from '@tanstack/react-router';
import { CrownIcon } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { useForm } from 'react-hook-form';
import { CaptchaWidget } from '../../components/captcha/captcha-widget';
import { useCaptcha } from '../../components/captcha/use-captcha';
import { ImpersonationNote } from '../../components/impersonation-banner';
import { UserAvatar } from '../../components/layout/user-avatar';
import { PasswordInput } from '../../components/password-input';
import { PasswordMeter } from '../../components/password-meter';
import { useImpersonation, useUserInfo } from '../../hooks/use-current-user';
import { formatMoney } from '../../lib/billing';
import { formatDateTime, relativeTime } from '../../lib/format';
import { toastError, toastIssue, toastSuccess } from '../../lib/notify';
import { validateChangePassword } from '../../lib/password';
import { isVip } from '../../lib/session';
import { trpcClient } from '../../lib/trpc';

export const Route = createFileRoute('/_app/profile')({
  staticData: { title: msg`Personal info` },
  component: ProfilePage,
});

function Row({ label, children, testId }: { label: ReactNode; children: ReactNode; testId: string }) {
  return (
    <div className="grid gap-1 border-b py-3 last:border-0 sm:grid-cols-[12rem_1fr]">
      <dt className="text-muted-foreground text-sm">{label}</dt>
      <dd className="break-all" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

function ProfilePage() {
  const { i18n, t } = useLingui();
  const info = useUserInfo();
  const user = info.data;
  const impersonated = useImpersonation() !== null;

  return (
    <div className="grid gap-6">
      <h1 className="font-semibold text-2xl">
        <Trans>Personal info</Trans>
      </h1>
      <Card>
        <CardHeader>
          <div className="flex items-center gap-4">
            <UserAvatar
              username={user?.username ?? ''}
              avatar={user?.avatar ?? ''}
              level={user?.level ?? 1}
              className="size-14 text-xl"
            />
            <div className="min-w-0">
              <CardTitle className="flex flex-wrap items-center gap-2 text-xl">
                <span className="truncate" data-testid="profile-username">
                  {user?.username ?? '…'}
                </span>
                {user && isVip(user.level) ? (
                  <Badge variant="vip" data-testid="vip-badge">
                    <CrownIcon />
                    VIP
                  </Badge>
                ) : null}
              </CardTitle>
              <CardDescription>
                {user ? <Trans>Member since {formatDateTime(user.createdAt)}</Trans> : null}
              </CardDescription>
            </div>
          </div>
        </CardHeader>
        <CardContent>
          {info.isPending ? (
            <Spinner />
          ) : info.isError ? (
            <p className="text-destructive">
              <Trans>Failed to retrieve user information</Trans>
            </p>
          ) : user ? (
            <dl>
              <Row label={<Trans>Username</Trans>} testId="profile-username-row">
                {user.username}
              </Row>
              <Row label={<Trans>Email</Trans>} testId="profile-email">
                {user.email}
              </Row>
              <Row label={<Trans>Last login IP</Trans>} testId="profile-last-ip">
                {user.lastLoginIp ?? '—'}
              </Row>
              <Row label={<Trans>Last login time</Trans>} testId="profile-last-time">
                {user.lastLoginTime ? (
                  <>
                    {formatDateTime(user.lastLoginTime)}{' '}
                    <span className="text-muted-foreground text-sm">
                      ({relativeTime(i18n, user.lastLoginTime)})
                    </span>
                  </>
                ) : (
                  '—'
                )}
              </Row>
              <Row label={<Trans>Balance</Trans>} testId="profile-balance">
                {formatMoney(i18n, user.balance)}
              </Row>
              <Row label={<Trans>Level</Trans>} testId="profile-level">
                {isVip(user.level) ? t`VIP (level ${user.level})` : t`Standard (level ${user.level})`}
              </Row>
            </dl>
          ) : null}
        </CardContent>
      </Card>
      {impersonated ? (
        <ImpersonationNote>
          <Trans>The password cannot be changed while an administrator is signed in as this user.</Trans>
        </ImpersonationNote>
      ) : (
        <ChangePasswordCard />
      )}
    </div>
  );
}

function ChangePasswordCard() {
  const { i18n, t } = useLingui();
  const captcha = useCaptcha();
  const form = useForm({ defaultValues: { oldPassword: '', newPassword: '', confirm: '' } });
  const [pending, setPending] = useState(false);

  async function submit(values: { oldPassword: string; newPassword: string; confirm: string }) {
    const issue = validateChangePassword({ ...values, captchaDone: captcha.done });
    if (issue) return toastIssue(i18n, issue);
    const fields = captcha.consume();
    if (!fields) return toastIssue(i18n, 'verification-invalid');
    setPending(true);
    try {
      await trpcClient.user.updatePassword.mutate({
        oldPassword: values.oldPassword,
        newPassword: values.newPassword,
        ...fields,
      });
      form.reset();
      toastSuccess(i18n, t`Password changed`);
    } catch (error) {
      toastError(i18n, error, { unreachable: t`Failed to change password` });
      // The captcha was spent either way; the next try needs a fresh one.
      captcha.renew();
    } finally {
      setPending(false);
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <Trans>Change password</Trans>
        </CardTitle>
        <CardDescription>
          <Trans>
            Use at least 6 characters; mix lower and upper case letters and digits for a strong password.
          </Trans>
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form className="grid max-w-md gap-4" onSubmit={form.handleSubmit(submit)} noValidate>
          <label className="grid gap-2 font-medium text-sm" htmlFor="old-password">
            <Trans>Current password</Trans>
            <PasswordInput
              id="old-password"
              autoComplete="current-password"
              {...form.register('oldPassword')}
            />
          </label>
          <label className="grid gap-2 font-medium text-sm" htmlFor="new-password">
            <Trans>New password</Trans>
            <PasswordInput id="new-password" autoComplete="new-password" {...form.register('newPassword')} />
          </label>
          <PasswordMeter password={form.watch('newPassword')} />
          <label className="grid gap-2 font-medium text-sm" htmlFor="confirm-password">
            <Trans>Confirm password</Trans>
            <PasswordInput id="confirm-password" autoComplete="new-password" {...form.register('confirm')} />
          </label>
          <CaptchaWidget captcha={captcha} />
          <Button type="submit" disabled={pending} className="w-fit" data-testid="change-password-submit">
            {pending ? <Spinner /> : null}
            <Trans>Change password</Trans>
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
