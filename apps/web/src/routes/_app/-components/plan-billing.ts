// What the plan page's cards share: where a purchase short of balance sends the payer, and what a plan change
// makes stale.
import { useQueryClient } from '@tanstack/react-query';
import type { TRechargeSearch } from '../../../lib/billing';
import { trpc } from '../../../lib/trpc';

/** Where a purchase short of balance sends the payer: the missing amount, and this page to come back to. */
export function rechargeFor(missing: number, returnTo: string): TRechargeSearch {
  return { amount: missing, returnTo };
}

/** The queries a purchase, a renewal or a claim changes. */
export function useRefreshBilling() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.pay.getUserPlan.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.pay.getPlanList.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.user.userinfo.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.room.getRoomRegion.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.room.getRoomImage.queryKey() }),
    ]);
}
