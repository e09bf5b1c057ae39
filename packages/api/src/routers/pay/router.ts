import { router } from '../../trpc';
import { getNotices, readNotices } from './notices';
import { getPayInfo, getPayList, getPayment, recharge, refresh } from './payments';
import { claimFreePlan, getPlanList, getUserPlan, payPlan, quotePlan, switchRenew } from './plans';

export const payRouter = router({
  getPlanList,
  getUserPlan,
  quotePlan,
  payPlan,
  switchRenew,
  claimFreePlan,
  recharge,
  getPayList,
  getPayInfo,
  getPayment,
  refresh,
  getNotices,
  readNotices,
});
