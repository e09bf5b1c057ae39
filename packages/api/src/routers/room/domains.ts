// The site's two addresses: where share links point, and the main site.
import { z } from 'zod';
import { siteUrls } from '../../site-urls';
import { publicProcedure } from '../../trpc';

export const getShareDomain = publicProcedure
  .meta({ rest: { method: 'GET', path: '/api/room/getShareDomain', auth: false, tag: 'Room', errors: [] } })
  .meta({ summary: 'The address share links start with (`{shareDomain}/share/room/{id}`).' })
  .input(z.object({}).optional())
  .output(z.string())
  .query(({ ctx }) => siteUrls(ctx).shareUrl);

export const getMainDomain = publicProcedure
  .meta({ rest: { method: 'GET', path: '/api/room/getMainDomain', auth: false, tag: 'Room', errors: [] } })
  .meta({ summary: 'The main site’s address.' })
  .input(z.object({}).optional())
  .output(z.string())
  .query(({ ctx }) => siteUrls(ctx).publicUrl);
