import { z } from 'zod';

/** What a room on a plan may be and do (planLimits in domains/billing/catalog.ts); every view of a plan has them. */
export const ZPlanLimits = z.object({
  maxRooms: z.number().int(),
  maxConnections: z.number().int(),
  maxWidth: z.number().int(),
  maxHeight: z.number().int(),
  maxFrameRate: z.number().int(),
  maxBitrateKbps: z.number().int(),
  regionCodes: z.array(z.string()),
  canConfigureAutoClose: z.boolean(),
  persistentStorage: z.boolean(),
});
export type TPlanLimits = z.infer<typeof ZPlanLimits>;

/** The caller's plan as the create-room dialog bounds its fields with it. */
export const ZCatalogPlan = z.object({
  code: z.string(),
  name: z.string(),
  ...ZPlanLimits.shape,
  roomCount: z.number().int().describe('Rooms the caller already has.'),
});

/** What the create dialog starts from, on the caller's plan (createRoom takes the same for a field left out). */
export const ZRoomDefaults = z.object({
  autoClose: z.boolean(),
  autoCloseMinutes: z.number().int(),
  keepData: z.boolean(),
  width: z.number().int(),
  height: z.number().int(),
  maxFrameRate: z.number().int(),
  videoBitrateKbps: z.number().int(),
  maxConnections: z.number().int(),
});

/** What both catalogue calls return beside their items (catalogContext in domains/billing/catalog.ts). */
export const ZCatalogContext = z.object({
  plan: ZCatalogPlan,
  defaults: ZRoomDefaults,
  upgradeHint: z
    .string()
    .nullable()
    .describe('Shown in the create dialog when a better plan exists; null on the best plan.'),
});
