// admin.plans.*: the plan catalogue, offered or not, and its editor.
import { z } from 'zod';
import { adminPlans, updatePlan } from '../../domains/admin';
import { adminProcedure, router } from '../../trpc';
import { ZAdminPlan, ZAdminPlanList, ZUpdatePlanRequest } from './admin.types';
import { adminDeps } from './admin-deps';

export const adminPlansRouter = router({
  list: adminProcedure
    .meta({ rest: { method: 'GET', path: '/api/admin/plans/list', tag: 'Admin', errors: [] } })
    .meta({ summary: 'Administrator: every plan with its price, inventory, limits, order and subscribers.' })
    .input(z.object({}).optional())
    .output(ZAdminPlanList)
    .query(({ ctx }) => adminPlans(ctx.em, ctx.services.now())),

  update: adminProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/plans/update',
        tag: 'Admin',
        errors: ['PLAN_NOT_FOUND', 'PLAN_DEFAULT_DISABLED', 'PLAN_NAME_TAKEN'],
      },
    })
    .meta({ summary: 'Administrator: change a plan’s price, inventory, limits, offering and order.' })
    .input(ZUpdatePlanRequest)
    .output(ZAdminPlan)
    .mutation(({ ctx, input }) => updatePlan(adminDeps(ctx, input), input)),
});
