// The room fleet's records and rules: agents register and heartbeat, placement gives each room start a run on one
// of them, the lost sweep hands back the runs of agents that went silent, and an agent reported unreachable is lost
// once confirmed. PostgreSQL holds it all; these functions are its rules. The fleet's runtime (the agents' links,
// the gateway, the heartbeat batcher, the duties that run the sweeps) is apps/server/src/fleet, which calls these
// as `fleet.*`; they live here because procedures read them too (the server state's live agents).
export * from './agents';
export * from './placement';
export * from './pruning';
export * from './restarts';
export * from './rules';
export * from './runs';
export * from './suspects';
