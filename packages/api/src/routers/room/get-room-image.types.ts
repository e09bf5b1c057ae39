import { z } from 'zod';
import { ZCatalogContext } from './plan-limits.types';

export const ZImageItem = z.object({
  code: z.string(),
  name: z.string(),
  description: z.string(),
  kind: z.enum(['blank', 'video', 'url']).describe('`url` images need the room’s own `startUrl`.'),
  startUrl: z.string().nullable(),
  allowed: z.boolean().describe('Whether the caller’s plan may use this image (every plan may, today).'),
});

export const ZGetRoomImageReply = ZCatalogContext.extend({ images: z.array(ZImageItem) });
export type TGetRoomImageReply = z.infer<typeof ZGetRoomImageReply>;
