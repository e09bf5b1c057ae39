import { z } from 'zod';
import { ZAdminLiveRoomList } from '../admin/admin.types';

export const ZStartLatency = z.object({
  windowMinutes: z.number().int(),
  started: z.number().int().describe('Rooms that reached running within the window.'),
  failed: z.number().int().describe('Starts that failed within the window.'),
  medianMs: z.number().nullable(),
  p95Ms: z.number().nullable(),
  maxMs: z.number().nullable(),
});

/** What a server tells of the machine it runs on: for administrators only, it helps an attacker aim. */
export const ZServerHost = z.object({
  name: z.string(),
  startedAt: z.string().describe('ISO time this server started.'),
  cpu: z.object({ cores: z.number().int(), percent: z.number() }),
  memory: z.object({ totalBytes: z.number(), usedBytes: z.number() }),
});

const ZServerRooms = z.object({ running: z.number().int(), max: z.number().int() });

/** A server as it describes itself in its fleet heartbeat. */
export const ZServerNode = ZServerHost.extend({ rooms: ZServerRooms, startLatency: ZStartLatency });

/** A server as /serverstate shows it: its rooms against capacity and start times to everyone, its host to admins. */
export const ZServerView = z.object({
  rooms: ZServerRooms,
  startLatency: ZStartLatency,
  host: ZServerHost.nullable().describe('Administrators only; null for everyone else.'),
});

export const ZServerRegion = z.object({
  code: z.string(),
  name: z.string(),
  description: z.string(),
  /** Rooms of this zone that are running now. */
  runningRooms: z.number().int(),
  nodes: z.array(ZServerView),
});

/** What only an administrator sees on /serverstate: each live room and this server process. */
export const ZServerDetails = z.object({
  rooms: ZAdminLiveRoomList,
  process: z.object({
    rssBytes: z.number(),
    heapUsedBytes: z.number(),
    uptimeSeconds: z.number().int(),
  }),
});

export const ZServerState = z.object({
  regions: z.array(ZServerRegion),
  updatedAt: z.string().describe('ISO time of this reading.'),
  details: ZServerDetails.nullable().describe('Administrators only; null for everyone else.'),
});

export type TServerNode = z.infer<typeof ZServerNode>;
export type TServerView = z.infer<typeof ZServerView>;
export type TServerState = z.infer<typeof ZServerState>;
