import { z } from 'zod';

/** The caller's plan as the create-room dialog bounds its fields with it. */
export const ZPlanLimits = z.object({
  code: z.string(),
  name: z.string(),
  maxRooms: z.number().int(),
  roomCount: z.number().int().describe('Rooms the caller already has.'),
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

/** What both catalogue calls return beside their items. */
export const ZCatalogueContext = z.object({
  plan: ZPlanLimits,
  defaults: ZRoomDefaults,
  upgradeHint: z
    .string()
    .nullable()
    .describe('Shown in the create dialog when a better plan exists; null on the best plan.'),
});
