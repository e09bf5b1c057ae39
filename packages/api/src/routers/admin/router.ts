// The admin area's API. Every procedure is an adminProcedure: anyone but an administrator in their own session is
// answered as if the path did not exist.
import { router } from '../../trpc';
import { auditList } from './audit';
import { adminPaymentsRouter } from './payments';
import { adminPlansRouter } from './plans';
import { adminReportsRouter } from './reports';
import { adminRoomsRouter } from './rooms';
import { adminUsersRouter } from './users';

export const adminRouter = router({
  users: adminUsersRouter,
  rooms: adminRoomsRouter,
  reports: adminReportsRouter,
  plans: adminPlansRouter,
  payments: adminPaymentsRouter,
  audit: router({ list: auditList }),
});
