// Recharge (/bill/pay): a payment method and an amount (presets or typed), then off to the provider's
// payment page; its way back leads to the bill (/bill?out_trade_no=…) with its status. Sent here by a purchase the
// balance did not cover (?amount=<missing>&returnTo=<page>), the amount is filled in and, once the bill is paid,
// the bill page takes the payer back to that purchase.
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@rooms/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@rooms/ui/card';
import { Input } from '@rooms/ui/input';
import { Label } from '@rooms/ui/label';
import { Spinner } from '@rooms/ui/spinner';
import { showToast } from '@rooms/ui/toaster';
import { useMutation, useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { WalletIcon } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { ImpersonationNote } from '../../../components/impersonation-banner';
import { QueryView } from '../../../components/query-view';
import { useImpersonation, useUserInfo } from '../../../hooks/use-current-user';
import { formatMoney, parseRechargeSearch, paymentMethodLabel } from '../../../lib/billing';
import { toastError } from '../../../lib/notify';
import { trpc } from '../../../lib/trpc';

export const Route = createFileRoute('/_app/bill/pay')({
  staticData: { title: msg`Recharge` },
  validateSearch: parseRechargeSearch,
  component: RechargePage,
});

/** What a purchase lacks, raised to the smallest recharge there is, as the amount field writes it. */
function suggestedAmount(missing: number | undefined, minAmount: number): string | null {
  if (missing === undefined) return null;
  return Math.max(missing, minAmount).toFixed(2);
}

function RechargePage() {
  const { i18n, t } = useLingui();
  const offer = useQuery(trpc.pay.getPayment.queryOptions());
  const user = useUserInfo();
  const search = Route.useSearch();
  const [method, setMethod] = useState<string | null>(null);
  // Null until typed or picked: the amount a purchase lacks fills it meanwhile.
  const [typed, setTyped] = useState<string | null>(null);
  const suggested = offer.data ? suggestedAmount(search.amount, offer.data.minAmount) : null;
  const amount = typed ?? suggested ?? '';
  const impersonated = useImpersonation() !== null;
  const recharge = useMutation(
    trpc.pay.recharge.mutationOptions({
      onSuccess: (payment) => {
        if (payment.paymentUrl) window.location.assign(payment.paymentUrl);
      },
      onError: (error) => toastError(i18n, error, { prefix: t`Recharge failed:` }),
    }),
  );

  function submit(event: FormEvent) {
    event.preventDefault();
    const chosen = method ?? offer.data?.methods[0]?.method ?? null;
    const dollars = Number(amount);
    // A recharge needs a method and an amount.
    if (!chosen || !amount.trim() || !Number.isFinite(dollars) || dollars <= 0) {
      showToast({
        severity: 'warn',
        summary: t`Warning`,
        detail: t`Please choose a payment method and an amount`,
      });
      return;
    }
    recharge.mutate({
      method: chosen,
      amount: dollars,
      ...(search.returnTo ? { returnTo: search.returnTo } : {}),
    });
  }

  return (
    <div className="grid gap-6">
      <h1 className="font-semibold text-2xl">
        <Trans>Recharge</Trans>
      </h1>
      {impersonated ? (
        <ImpersonationNote>
          <Trans>Recharging is not available while an administrator is signed in as this user.</Trans>
        </ImpersonationNote>
      ) : null}
      <QueryView query={offer} failure={<Trans>Failed to retrieve the payment methods</Trans>}>
        {(data) => {
          if (impersonated) return null;
          const chosen = method ?? data.methods[0]?.method ?? null;
          return data.methods.length === 0 ? (
            <Card>
              <CardContent className="py-10 text-center text-muted-foreground">
                <Trans>No payment method is available on this server.</Trans>
              </CardContent>
            </Card>
          ) : (
            <form onSubmit={submit} noValidate>
              <Card className="max-w-xl">
                <CardHeader>
                  <CardTitle>
                    <Trans>Recharge your balance</Trans>
                  </CardTitle>
                  <CardDescription>
                    {user.data ? (
                      <Trans>Current balance: {formatMoney(i18n, user.data.balance)}</Trans>
                    ) : null}{' '}
                    <Trans>The bill stays payable for {data.expiresInMinutes} minutes.</Trans>
                    {search.amount !== undefined && search.returnTo ? (
                      <span className="mt-2 block text-foreground" data-testid="recharge-for-purchase">
                        <Trans>
                          {formatMoney(i18n, search.amount)} more is needed. Once the bill is paid, you go
                          back to where you were.
                        </Trans>
                      </span>
                    ) : null}
                  </CardDescription>
                </CardHeader>
                <CardContent className="grid gap-6">
                  <fieldset className="grid gap-2">
                    <legend className="mb-2 font-medium text-sm">
                      <Trans>Payment method</Trans>
                    </legend>
                    {data.methods.map((option) => (
                      <Label
                        key={option.method}
                        className="cursor-pointer rounded-md border p-3 font-normal has-[:checked]:border-primary"
                      >
                        <input
                          type="radio"
                          name="method"
                          value={option.method}
                          checked={chosen === option.method}
                          onChange={() => setMethod(option.method)}
                          className="accent-primary"
                          data-testid={`method-${option.method}`}
                        />
                        {paymentMethodLabel(i18n, option.method)}
                      </Label>
                    ))}
                  </fieldset>
                  <div className="grid gap-2">
                    <Label htmlFor="recharge-amount">
                      <Trans>Amount (USD)</Trans>
                    </Label>
                    <div className="flex flex-wrap gap-2">
                      {data.presets.map((preset) => (
                        <Button
                          key={preset}
                          type="button"
                          variant={Number(amount) === preset ? 'default' : 'outline'}
                          onClick={() => setTyped(String(preset))}
                          data-testid={`preset-${preset}`}
                        >
                          {formatMoney(i18n, preset)}
                        </Button>
                      ))}
                    </div>
                    <Input
                      id="recharge-amount"
                      inputMode="decimal"
                      type="number"
                      min={data.minAmount}
                      max={data.maxAmount}
                      step="0.01"
                      value={amount}
                      onChange={(event) => setTyped(event.target.value)}
                      placeholder={t`From ${formatMoney(i18n, data.minAmount)} to ${formatMoney(i18n, data.maxAmount)}`}
                      data-testid="recharge-amount"
                    />
                  </div>
                </CardContent>
                <CardFooter>
                  <Button type="submit" disabled={recharge.isPending} data-testid="recharge-submit">
                    {recharge.isPending ? <Spinner /> : <WalletIcon />}
                    <Trans>Go to payment</Trans>
                  </Button>
                </CardFooter>
              </Card>
            </form>
          );
        }}
      </QueryView>
    </div>
  );
}
