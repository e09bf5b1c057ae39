// This process as a room agent (ROOM_ROLE all or agent): the room engine with its egress proxy, sandbox and
// warm pool; the runs the fleet hands it; the state sync that stores what its engine says; its registration and
// heartbeats in the fleet. Everything that must sit beside the browsers.
import { effectiveSettings, type NodeMonitor, type RoomListCache } from '@rooms/api';
import { Plan, planOf, Room } from '@rooms/db';
import type { FastifyInstance } from 'fastify';
import type { TConfig } from '../env';
import { startEgressProxy } from '../rooms/egress/egress-proxy';
import { ChromiumRoomEngine } from '../rooms/engine/chromium-room-engine';
import { createProfileStore } from '../rooms/profiles/create-profile-store';
import { startRoomStateSync } from '../rooms/room-state-sync';
import { startNodeMonitor } from '../services/node-monitor/node-monitor';
import { AgentRuns } from './agent-runs';
import { driveGameServer } from './agones/game-server';
import { controlPlaneSink } from './control-routes';
import type { TLocalRooms } from './fleet-room-engine';
import { startLocalAgent, type TRegisterAgents } from './local-agent';

declare module 'fastify' {
  interface FastifyInstance {
    /** The rooms' engine of this agent, with what the WebSocket relay needs (sessions, participant counts). */
    roomEngine: ChromiumRoomEngine;
    /** The runs the fleet handed this agent. */
    agentRuns: AgentRuns;
  }
}

export async function startRoomAgent(
  app: FastifyInstance,
  config: TConfig,
  roomListCache: RoomListCache,
): Promise<TLocalRooms & { node: NodeMonitor }> {
  // Closed after the engine, whose close saves every kept profile (onClose hooks run last-in first-out).
  const profiles = createProfileStore(config.rooms.profiles, { orm: app.orm, logger: app.log });
  app.addHook('onClose', async () => profiles.close());
  const engine = new ChromiumRoomEngine({
    chromiumPath: config.rooms.chromiumPath,
    roomsDataDir: config.rooms.dataDir,
    profiles,
    capacity: config.rooms.capacity,
    warmPool: config.rooms.warmPool,
    media: config.rooms.media,
    sandbox: config.rooms.sandbox,
    egress: {
      start: ({ allow }) =>
        // One proxy for every room: Chromium alone keeps up to 32 connections to it, pages add WebSockets.
        startEgressProxy({
          allow,
          maxConnections: Math.max(512, config.rooms.capacity * 128),
          logger: app.log,
        }),
      allow: config.rooms.egressAllow,
    },
    logger: app.log,
  });
  // Said at start-up, not at the first room: an operator must see at once whether rooms are isolated. With
  // ROOM_SANDBOX=on and no way to isolate, the server does not start.
  await engine.sandboxSupport();
  const roomsProblem = await engine.preflight();
  if (roomsProblem)
    app.log.error({ problem: roomsProblem }, 'rooms cannot start on this server until this is fixed');

  const runs = new AgentRuns({ orm: app.orm, engine, log: app.log });
  // Registered before the engine's own close hook so it runs after it (onClose hooks run last-in first-out):
  // every change is stored, except that rooms stopped by the shutdown stay stored as running (the control plane
  // starts them again once the fleet has their runs lost).
  const states = await startRoomStateSync({
    orm: app.orm,
    engine,
    logger: app.log,
    epochOf: (roomId) => runs.epochOf(roomId),
    // Alone on its database (npm start), the agent corrects what an earlier process left; beside other agents,
    // their rooms are not its business.
    reconcile: config.role === 'all',
    stored: (roomIds) => roomListCache.roomsChanged(roomIds),
  });
  app.addHook('onClose', async () => states.close());
  // The warm pool fills for the likeliest next room.
  app.addHook('onReady', async () => {
    void warmForLastRoom(app, engine);
  });
  // No browser may outlive the process: every room stops (and keep-data profiles flush) before exit.
  app.addHook('onClose', async () => engine.close());
  app.addHook('onClose', async () => runs.close());
  app.decorate('roomEngine', engine);
  app.decorate('agentRuns', runs);

  const node = startNodeMonitor({ engine });
  app.addHook('onClose', async () => node.close());
  // Leaves the fleet before the engine stops its rooms (hooks run last-in first-out), so their runs are lost, not
  // ended: the control plane starts them again.
  const reachable = config.role === 'agent';
  // An agent of a fleet registers through the control plane, which puts its agent ids in its credential, and
  // heartbeats there, as those ids only; the control plane writes every agent's heartbeats in batches.
  const enrolled = reachable && config.controlUrl ? app.fleetAuth.enrolled : undefined;
  if (reachable && config.controlUrl && !enrolled) {
    throw new Error(
      'an agent with CONTROL_URL needs its join token (FLEET_AGENT_JOIN_TOKEN) to join the fleet',
    );
  }
  const register: TRegisterAgents | undefined = enrolled
    ? (regionCodes, { capacity, version }) => enrolled.registerAgents(regionCodes, { capacity, version })
    : undefined;
  const agent = await startLocalAgent({
    orm: app.orm,
    register,
    heartbeats:
      enrolled && config.controlUrl
        ? controlPlaneSink(config.controlUrl, enrolled)
        : app.fleetHeartbeats.beat,
    node,
    log: app.log,
    address: reachable ? config.agent.address : undefined,
    regions: config.agent.regions,
    name: config.agent.name,
    runIds: () => runs.runIds(),
    abandonUnheld: (candidates, held) => runs.abandonUnheld(candidates, held),
    members: () => (app.hasDecorator('roomRelay') ? app.roomRelay.memberCounts() : {}),
    knocks: () => (app.hasDecorator('roomRelay') ? app.roomRelay.knocksByRoom() : {}),
  });
  app.addHook('onClose', async () => agent.close());
  if (config.agent.agonesSdkPort) {
    const sdkPort = config.agent.agonesSdkPort;
    driveGameServer(app, { sdkPort, capacity: config.rooms.capacity, rooms: () => runs.count() });
  }
  return { engine, runs, agentIds: () => agent.ids(), reachable, node };
}

/**
 * The shape of the room started last, with its owner's plan applied as its start would apply it; with no room
 * started yet, a new room's on the default plan (created rooms take the plan's limits).
 */
async function warmForLastRoom(app: FastifyInstance, engine: ChromiumRoomEngine): Promise<void> {
  if (engine.warmRuns().shape) return;
  try {
    const em = app.orm.em.fork();
    const room = await em.findOne(
      Room,
      { lastStartedAt: { $ne: null } },
      { orderBy: { lastStartedAt: 'desc' } },
    );
    if (room) {
      engine.warmFor(effectiveSettings(room, await planOf(em, room.owner.id)));
      return;
    }
    const plan = await em.findOne(Plan, { isDefault: true }, { orderBy: { sortOrder: 'asc' } });
    if (!plan) return;
    engine.warmFor({
      width: plan.maxWidth,
      height: plan.maxHeight,
      maxFrameRate: plan.maxFrameRate,
      videoBitrateKbps: plan.maxBitrateKbps,
    });
  } catch (error) {
    app.log.warn({ err: error }, 'could not tell the warm room pool what to start');
  }
}
