// What any page may show about this install, signed in or not: the address people write to for help, as the
// operator configured it (SUPPORT_EMAIL), or none.
import { z } from 'zod';
import { publicProcedure } from '../../trpc';

export const ZSiteInfo = z.object({
  supportEmail: z.email().nullable().describe('Where people write for help; null when none is configured.'),
});
export type TSiteInfo = z.infer<typeof ZSiteInfo>;

export const getSiteInfo = publicProcedure
  .meta({ summary: 'The install’s public details: the support address (null when none is configured).' })
  .input(z.object({}).optional())
  .output(ZSiteInfo)
  .query(({ ctx }) => ({ supportEmail: ctx.services.config.supportEmail }));
