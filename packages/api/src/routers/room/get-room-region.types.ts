import { z } from 'zod';
import { ZCatalogContext } from './plan-limits.types';

export const ZRegionItem = z.object({
  code: z.string(),
  name: z.string(),
  description: z.string(),
  allowed: z.boolean().describe('Whether the caller’s plan may create rooms in this zone.'),
});

export const ZGetRoomRegionReply = ZCatalogContext.extend({ regions: z.array(ZRegionItem) });
export type TGetRoomRegionReply = z.infer<typeof ZGetRoomRegionReply>;
