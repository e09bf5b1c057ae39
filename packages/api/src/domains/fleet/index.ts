// The room fleet: agents register and heartbeat, placement gives each room start a run on one of them, the lost
// sweep hands back the runs of agents that went silent, and an agent reported unreachable is lost once confirmed.
// PostgreSQL holds it all; these functions are its rules.
export * from './agents';
export * from './placement';
export * from './pruning';
export * from './restarts';
export * from './rules';
export * from './runs';
export * from './suspects';
