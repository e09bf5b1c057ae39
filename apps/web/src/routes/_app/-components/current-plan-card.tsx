// The plan held (/planlist's first card): its limits, room time left, expiry or 'permanent', and the auto-renew
// switch, which warns when the balance will not cover the renewal.
import { Trans, useLingui } from '@lingui/react/macro';
import type { TUserPlan } from '@rooms/api/client';
import { Badge } from '@rooms/ui/badge';
import { Button } from '@rooms/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@rooms/ui/card';
import { Checkbox } from '@rooms/ui/checkbox';
import { Label } from '@rooms/ui/label';
import { showToast } from '@rooms/ui/toaster';
import { useMutation } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { CrownIcon, TriangleAlertIcon, WalletIcon } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useImpersonation } from '../../../hooks/use-current-user';
import { formatMoney, formatRoomTime, toastPlanFailure } from '../../../lib/billing';
import { formatDateTime } from '../../../lib/format';
import { translateServerText } from '../../../lib/messages';
import { toastSuccess } from '../../../lib/notify';
import { trpc } from '../../../lib/trpc';
import { rechargeFor, useRefreshBilling } from './plan-billing';
import { PlanLimits } from './plan-limits';

export function CurrentPlanCard({ held }: { held: TUserPlan }) {
  const { i18n, t } = useLingui();
  const refresh = useRefreshBilling();
  // Switching auto-renew on with a balance short of the next renewal asks first, saying what is missing.
  const [confirmingRenew, setConfirmingRenew] = useState(false);
  const switchRenew = useMutation(
    trpc.pay.switchRenew.mutationOptions({
      onSuccess: async (reply) => {
        await refresh();
        if (reply.autoRenew && reply.missing > 0) {
          showToast({
            severity: 'warn',
            summary: t`Warning`,
            detail: t`Auto-renew is on, but your balance is ${formatMoney(i18n, reply.missing)} short of the next renewal`,
          });
        } else {
          toastSuccess(i18n, reply.autoRenew ? t`Auto-renew is on` : t`Auto-renew is off`);
        }
      },
      onError: (error) => toastPlanFailure(i18n, 'switch', error),
    }),
  );
  const renewalPrice = held.plan.price;
  const renewalMissing = Math.max(0, Math.round((renewalPrice - held.balance) * 100) / 100);
  const renewsOn = held.expiresAt ? formatDateTime(held.expiresAt) : '';
  const onRenewChange = (on: boolean) => {
    if (on && renewalMissing > 0) setConfirmingRenew(true);
    else switchRenew.mutate({ flag: on });
  };
  const vip = held.plan.level > 1;
  const impersonated = useImpersonation() !== null;
  const claimTime = formatRoomTime(i18n, held.plan.timeQuotaMinutes * 60);
  return (
    <Card data-testid="current-plan">
      <CardHeader>
        <CardDescription>
          <Trans>Current plan</Trans>
        </CardDescription>
        <CardTitle className="flex flex-wrap items-center gap-2 text-xl">
          <span data-testid="current-plan-name">{translateServerText(i18n, held.plan.name)}</span>
          {vip ? (
            <Badge variant="vip" data-testid="current-plan-vip">
              <CrownIcon />
              VIP
            </Badge>
          ) : null}
        </CardTitle>
        {!held.claimed ? (
          // Everyone holds the free plan from the start; "not claimed" alone read as if it were not theirs yet.
          <p className="text-muted-foreground text-sm" data-testid="free-plan-claim-hint">
            {held.plan.timeQuotaMinutes > 0 ? (
              <Trans>
                You are on the free plan. Claim it once under Plans to add {claimTime} of room time.
              </Trans>
            ) : (
              <Trans>You are on the free plan.</Trans>
            )}
          </p>
        ) : null}
      </CardHeader>
      <CardContent className="grid gap-6 md:grid-cols-2">
        <PlanLimits plan={held.plan} />
        <dl className="grid h-fit gap-3 text-sm">
          <div className="flex justify-between gap-4">
            <dt className="text-muted-foreground">
              <Trans>Expires</Trans>
            </dt>
            <dd data-testid="current-plan-expiry">
              {held.permanent || !held.expiresAt ? <Trans>permanent</Trans> : formatDateTime(held.expiresAt)}
            </dd>
          </div>
          {/* In the order rooms spend them: this month's free time, then the time that came with a plan. */}
          <div className="flex justify-between gap-4">
            <dt className="text-muted-foreground">
              <Trans>Free room time left this month</Trans>
            </dt>
            <dd data-testid="current-plan-free-time">
              {formatRoomTime(i18n, held.remainingFreeTimeQuotaSeconds)}{' '}
              <span className="text-muted-foreground text-xs">
                (<Trans>renews {formatDateTime(held.freeTimeQuotaResetsAt)}</Trans>)
              </span>
            </dd>
          </div>
          <div className="flex justify-between gap-4">
            <dt className="text-muted-foreground">
              <Trans>Plan room time left</Trans>
            </dt>
            <dd data-testid="current-plan-time">{formatRoomTime(i18n, held.remainingTimeQuotaSeconds)}</dd>
          </div>
          <div className="flex items-center justify-between gap-4">
            <dt className="text-muted-foreground">
              <Trans>Balance</Trans>
            </dt>
            <dd className="flex items-center gap-2">
              <span data-testid="current-plan-balance">{formatMoney(i18n, held.balance)}</span>
              {impersonated ? null : (
                <Button asChild size="sm" variant="outline">
                  <Link to="/bill/pay">
                    <WalletIcon />
                    <Trans>Recharge</Trans>
                  </Link>
                </Button>
              )}
            </dd>
          </div>
          {held.canAutoRenew ? (
            <Label className="justify-between font-normal">
              <span className="text-muted-foreground">
                <Trans>Renew automatically with my balance</Trans>
              </span>
              <Checkbox
                checked={held.autoRenew}
                disabled={switchRenew.isPending || impersonated}
                onCheckedChange={(checked) => onRenewChange(checked === true)}
                data-testid="auto-renew"
              />
            </Label>
          ) : null}
          {held.canAutoRenew && held.autoRenew && renewalMissing > 0 ? (
            <p
              className="flex items-start gap-2 rounded-md bg-warning/10 p-2 text-warning text-xs"
              data-testid="auto-renew-short"
            >
              <TriangleAlertIcon className="mt-0.5 size-4 shrink-0" />
              <span>
                <Trans>
                  The renewal on {renewsOn} costs {formatMoney(i18n, renewalPrice)}: recharge{' '}
                  {formatMoney(i18n, renewalMissing)} more by then, or the plan ends instead of renewing.
                </Trans>{' '}
                {impersonated ? null : (
                  <Link
                    to="/bill/pay"
                    search={rechargeFor(renewalMissing, '/planlist')}
                    className="underline"
                    data-testid="auto-renew-recharge"
                  >
                    <Trans>Recharge</Trans>
                  </Link>
                )}
              </span>
            </p>
          ) : null}
        </dl>
      </CardContent>
      <ConfirmDialog
        open={confirmingRenew}
        title={<Trans>Turn on auto-renew?</Trans>}
        confirmLabel={<Trans>Turn on anyway</Trans>}
        onCancel={() => setConfirmingRenew(false)}
        onConfirm={() => {
          setConfirmingRenew(false);
          switchRenew.mutate({ flag: true });
        }}
        testId="auto-renew-confirm"
      >
        <span className="grid gap-2">
          <span data-testid="auto-renew-confirm-short">
            <Trans>
              Your balance is {formatMoney(i18n, held.balance)}, but the renewal on {renewsOn} costs{' '}
              {formatMoney(i18n, renewalPrice)}. You need {formatMoney(i18n, renewalMissing)} more by then, or
              the plan ends instead of renewing.
            </Trans>
          </span>
          <Link
            to="/bill/pay"
            search={rechargeFor(renewalMissing, '/planlist')}
            className="underline"
            data-testid="auto-renew-confirm-recharge"
          >
            <Trans>Recharge {formatMoney(i18n, renewalMissing)}</Trans>
          </Link>
        </span>
      </ConfirmDialog>
    </Card>
  );
}

/** `balance`: undefined until the user's plan has arrived; Buy waits for it rather than counting from $0.00. */
