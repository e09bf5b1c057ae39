// What billing did to the account on its own since the last visit (rooms stopped when room time ran out, a plan
// renewed or lapsed), each dismissed once read.
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@rooms/ui/button';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { BellIcon, XIcon } from 'lucide-react';
import { formatDateTime } from '../../../lib/format';
import { trpc } from '../../../lib/trpc';

export function BillingNotices() {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const notices = useQuery(trpc.pay.getNotices.queryOptions());
  const read = useMutation(
    trpc.pay.readNotices.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.pay.getNotices.queryKey() }),
    }),
  );
  if (!notices.data?.length) return null;
  return (
    <div className="grid gap-2" data-testid="billing-notices">
      {notices.data.map((notice) => (
        <div
          key={notice.id}
          className="flex items-start gap-3 rounded-md border border-warning/40 bg-warning/10 p-3 text-sm"
          data-testid={`billing-notice-${notice.kind}`}
        >
          <BellIcon className="mt-0.5 size-4 shrink-0 text-warning" />
          <div className="grid flex-1 gap-1">
            <p>
              {notice.kind === 'quota-exhausted' ? (
                <Trans>
                  Your room time ran out, so{' '}
                  <Plural
                    value={notice.roomsStopped}
                    one="# running room was stopped"
                    other="# running rooms were stopped"
                  />
                  . Buy a plan or wait for next month’s free time to start rooms again.
                </Trans>
              ) : notice.kind === 'plan-renewed' ? (
                <Trans>Your plan {notice.planName} was renewed automatically with your balance.</Trans>
              ) : (
                <Trans>
                  Your plan {notice.planName} ended and you are back on the free plan;{' '}
                  <Plural
                    value={notice.roomsStopped}
                    one="# room beyond its limits was stopped"
                    other="# rooms beyond its limits were stopped"
                  />
                  .
                </Trans>
              )}
            </p>
            <p className="text-muted-foreground text-xs">
              {formatDateTime(notice.createdAt)} ·{' '}
              <Link to="/planlist" className="text-primary hover:underline">
                <Trans>See plans</Trans>
              </Link>
            </p>
          </div>
          <Button
            variant="ghost"
            size="icon"
            className="size-7"
            aria-label={t`Dismiss`}
            onClick={() => read.mutate({ ids: [notice.id] })}
          >
            <XIcon />
          </Button>
        </div>
      ))}
    </div>
  );
}
