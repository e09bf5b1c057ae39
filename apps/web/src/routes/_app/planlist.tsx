// Subscription management (/planlist): the plan held with its limits, room time left, expiry (or
// 'permanent') and the auto-renew switch (which warns when the balance will not cover the renewal); then every plan
// on offer with its price, limits and stock, bought with the balance after a confirmation that shows the credit for
// the unused part of the plan held, the net price and the balance left, renewed, or (the free plan) claimed once.
// A purchase short of balance goes to the recharge with the missing amount and comes back here (?buy=<plan code>)
// to the same confirmation.
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { TPlanView, TQuotePlan } from '@rooms/api/client';
import { Badge } from '@rooms/ui/badge';
import { Button } from '@rooms/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@rooms/ui/card';
import { Spinner } from '@rooms/ui/spinner';
import { useMutation, useQuery } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { CrownIcon } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ImpersonationNote } from '../../components/impersonation-banner';
import { QueryView } from '../../components/query-view';
import { useImpersonation } from '../../hooks/use-current-user';
import { useFailureToast } from '../../hooks/use-failure-toast';
import { formatMoney, formatRoomTime, toastPlanFailure } from '../../lib/billing';
import { formatDays } from '../../lib/format';
import { describeError, translateServerText } from '../../lib/messages';
import { toastSuccess } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { BillingNotices } from './-components/billing-notices';
import { CurrentPlanCard } from './-components/current-plan-card';
import { rechargeFor, useRefreshBilling } from './-components/plan-billing';
import { PlanLimits } from './-components/plan-limits';

export const Route = createFileRoute('/_app/planlist')({
  staticData: { title: msg`Subscription` },
  // ?buy=<plan code>: back from a recharge made for that purchase, whose confirmation opens again.
  validateSearch: (search: Record<string, unknown>): { buy?: string } =>
    typeof search.buy === 'string' && /^[\w-]{1,64}$/.test(search.buy) ? { buy: search.buy } : {},
  component: PlanListPage,
});

type TPlanListItem = TPlanView & { current: boolean; claimable: boolean; claimed: boolean };

function PlanListPage() {
  const { t } = useLingui();
  const userPlan = useQuery(trpc.pay.getUserPlan.queryOptions());
  const plans = useQuery(trpc.pay.getPlanList.queryOptions());
  const { buy } = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  // The purchase to resume, once: the search param is dropped so a reload or Back does not open it again.
  const [resumed, setResumed] = useState<string | null>(null);
  useEffect(() => {
    if (!buy) return;
    setResumed(buy);
    void navigate({ search: {}, replace: true });
  }, [buy, navigate]);
  useFailureToast(plans.error, t`Failed to retrieve the plan list`);
  const impersonated = useImpersonation() !== null;

  return (
    <div className="grid gap-6">
      <h1 className="font-semibold text-2xl">
        <Trans>Subscription</Trans>
      </h1>
      <BillingNotices />
      {impersonated ? (
        <ImpersonationNote>
          <Trans>
            Buying, renewing, claiming and recharging are not available while an administrator is signed in as
            this user.
          </Trans>
        </ImpersonationNote>
      ) : null}
      <QueryView query={userPlan} failure={<Trans>Failed to retrieve your plan</Trans>}>
        {(held) => <CurrentPlanCard held={held} />}
      </QueryView>
      <h2 className="font-semibold text-xl">
        <Trans>Plans</Trans>
      </h2>
      <QueryView query={plans} failure={<Trans>Failed to retrieve the plan list</Trans>}>
        {(list) => (
          <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
            {list.map((plan) => (
              <PlanCard
                key={plan.id}
                plan={plan}
                balance={userPlan.data?.balance}
                resume={resumed === plan.code}
                onResumed={() => setResumed(null)}
              />
            ))}
          </div>
        )}
      </QueryView>
    </div>
  );
}

function PlanCard({
  plan,
  balance,
  resume,
  onResumed,
}: {
  plan: TPlanListItem;
  balance: number | undefined;
  /** Back from a recharge made for this purchase: open its confirmation again once the balance is known. */
  resume: boolean;
  onResumed: () => void;
}) {
  const { i18n, t } = useLingui();
  const name = translateServerText(i18n, plan.name);
  const refresh = useRefreshBilling();
  const [confirming, setConfirming] = useState(false);
  // The confirmation counts from the server's quote: the credit for the plan held depends on the moment.
  const quote = useQuery({
    ...trpc.pay.quotePlan.queryOptions({ id: plan.id }),
    enabled: confirming,
    staleTime: 0,
  });
  const buyable = !plan.isFree && !plan.soldOut;
  useEffect(() => {
    if (!resume || balance === undefined) return;
    onResumed();
    if (buyable) setConfirming(true);
  }, [resume, balance, buyable, onResumed]);
  const onError = (error: unknown) => toastPlanFailure(i18n, 'purchase', error);
  const buy = useMutation(
    trpc.pay.payPlan.mutationOptions({
      onSuccess: async (reply) => {
        await refresh();
        const bought = translateServerText(i18n, reply.plan.name);
        toastSuccess(
          i18n,
          reply.renewed
            ? t`${bought} renewed; your balance is now ${formatMoney(i18n, reply.balance)}`
            : reply.credit > 0
              ? t`You now hold ${bought}; ${formatMoney(i18n, reply.credit)} was credited for your previous plan and your balance is now ${formatMoney(i18n, reply.balance)}`
              : t`You now hold ${bought}; your balance is now ${formatMoney(i18n, reply.balance)}`,
        );
      },
      onError,
    }),
  );
  const claim = useMutation(
    trpc.pay.claimFreePlan.mutationOptions({
      onSuccess: async () => {
        await refresh();
        toastSuccess(i18n, t`Free plan claimed`);
      },
      onError,
    }),
  );
  const pending = buy.isPending || claim.isPending;
  // An impersonated session may not spend the user's money: the buttons stay, disabled, so the page reads the same.
  const impersonated = useImpersonation() !== null;
  const price = formatMoney(i18n, plan.price);
  const term = formatDays(i18n, plan.durationDays ?? 0);

  const claimTime = formatRoomTime(i18n, plan.timeQuotaMinutes * 60);
  let action: ReactNode;
  if (plan.isFree) {
    // Held already (everyone starts on it): claiming is a one-time gift of room time, and the button says so.
    action = plan.claimable ? (
      <div className="grid w-full gap-2">
        {plan.timeQuotaMinutes > 0 ? (
          <p className="text-muted-foreground text-sm" data-testid="claim-note">
            <Trans>You are on this plan. Claim it once for {claimTime} of room time.</Trans>
          </p>
        ) : null}
        <Button
          className="w-full"
          disabled={pending || impersonated}
          onClick={() => claim.mutate({})}
          data-testid={`claim-${plan.code}`}
        >
          {pending ? <Spinner /> : null}
          {plan.timeQuotaMinutes > 0 ? (
            <Trans>Claim {claimTime} of room time</Trans>
          ) : (
            <Trans>Claim free plan</Trans>
          )}
        </Button>
      </div>
    ) : (
      <Button className="w-full" variant="outline" disabled>
        {plan.current ? (
          <Trans>Current plan</Trans>
        ) : plan.claimed ? (
          <Trans>Claimed</Trans>
        ) : (
          <Trans>Yours again when your plan ends</Trans>
        )}
      </Button>
    );
  } else if (plan.soldOut) {
    action = (
      <Button className="w-full" variant="outline" disabled>
        <Trans>Sold out</Trans>
      </Button>
    );
  } else {
    action = (
      <Button
        className="w-full"
        variant={plan.current ? 'outline' : 'default'}
        disabled={pending || impersonated || balance === undefined}
        onClick={() => setConfirming(true)}
        data-testid={`buy-${plan.code}`}
      >
        {pending ? <Spinner /> : null}
        {plan.current ? <Trans>Renew</Trans> : <Trans>Buy</Trans>}
      </Button>
    );
  }

  return (
    <Card data-testid={`plan-${plan.code}`} className={plan.current ? 'border-primary' : undefined}>
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2">
          {name}
          {plan.level > 1 ? (
            <Badge variant="vip">
              <CrownIcon />
              VIP
            </Badge>
          ) : null}
          {plan.current ? (
            <Badge variant="secondary">
              <Trans>Current</Trans>
            </Badge>
          ) : null}
          {plan.soldOut ? (
            <Badge variant="warning" data-testid="sold-out">
              <Trans>Sold out</Trans>
            </Badge>
          ) : plan.inventory !== null ? (
            <Badge variant="outline">
              <Trans>{plan.inventory} left</Trans>
            </Badge>
          ) : null}
        </CardTitle>
        <CardDescription>{translateServerText(i18n, plan.description)}</CardDescription>
        <p className="pt-2">
          <span className="font-semibold text-3xl" data-testid="plan-price">
            {plan.isFree ? <Trans>Free</Trans> : price}
          </span>{' '}
          <span className="text-muted-foreground text-sm">
            {plan.permanent ? <Trans>permanent</Trans> : <Trans>for {term}</Trans>}
          </span>
        </p>
      </CardHeader>
      <CardContent>
        <PlanLimits plan={plan} />
      </CardContent>
      <CardFooter>{action}</CardFooter>
      <ConfirmDialog
        open={confirming}
        title={plan.current ? <Trans>Renew {name}?</Trans> : <Trans>Buy {name}?</Trans>}
        confirmLabel={
          quote.data && quote.data.credit > 0 ? (
            <Trans>Pay {formatMoney(i18n, Math.max(0, quote.data.net))}</Trans>
          ) : plan.current ? (
            <Trans>Renew for {price}</Trans>
          ) : (
            <Trans>Pay {price}</Trans>
          )
        }
        confirmDisabled={!quote.data || quote.data.missing > 0}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          buy.mutate({ id: plan.id });
        }}
        testId="buy-confirm"
      >
        <span className="grid gap-2">
          {plan.current ? (
            <Trans>The plan is extended by {term} and its room time is added.</Trans>
          ) : (
            <Trans>Your current plan ends at once and {name} starts now.</Trans>
          )}
          {quote.data ? (
            <PurchaseSums quote={quote.data} planCode={plan.code} />
          ) : quote.isError ? (
            <span className="text-destructive">{describeError(i18n, quote.error).text}</span>
          ) : (
            <Spinner />
          )}
        </span>
      </ConfirmDialog>
    </Card>
  );
}

/** The confirmation's sums: price, the credit for the plan held, what is paid, and the balance before and after. */
function PurchaseSums({ quote, planCode }: { quote: TQuotePlan; planCode: string }) {
  const { i18n } = useLingui();
  const money = (dollars: number) => formatMoney(i18n, dollars);
  return (
    <span className="grid gap-2">
      {quote.credit > 0 ? (
        <span className="grid gap-0.5" data-testid="buy-confirm-credit">
          <span>
            <Trans>Price: {money(quote.price)}</Trans>
          </span>
          <span>
            <Trans>Credit for the unused part of your current plan: −{money(quote.credit)}</Trans>
          </span>
          <span className="font-medium" data-testid="buy-confirm-net">
            {quote.net >= 0 ? (
              <Trans>To pay: {money(quote.net)}</Trans>
            ) : (
              <Trans>Added to your balance: {money(-quote.net)}</Trans>
            )}
          </span>
        </span>
      ) : null}
      {quote.missing > 0 ? (
        // Paying with too little balance would only be refused: say what is missing and offer the recharge instead.
        <span className="text-destructive" data-testid="buy-confirm-balance">
          <Trans>
            Balance now: {money(quote.balance)}. You need {money(quote.missing)} more; please recharge first.
          </Trans>{' '}
          <Link
            to="/bill/pay"
            search={rechargeFor(quote.missing, `/planlist?buy=${planCode}`)}
            className="underline"
            data-testid="buy-confirm-recharge"
          >
            <Trans>Recharge</Trans>
          </Link>
        </span>
      ) : (
        <span data-testid="buy-confirm-balance">
          <Trans>
            Balance now: {money(quote.balance)}. Balance after purchase: {money(quote.balanceAfter)}.
          </Trans>
        </span>
      )}
    </span>
  );
}
