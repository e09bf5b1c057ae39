// The fleet's clock: how often agents speak, how long silence may last before their rooms are given away.

/** How often an agent heartbeats (and so renews its runs' leases). */
export const HEARTBEAT_INTERVAL_MS = 3_000;

/**
 * An agent silent this long is lost: three missed heartbeats and a bit, so one slow beat on a busy machine or a
 * short network hiccup does not move its rooms.
 */
export const AGENT_LOST_AFTER_MS = 10_000;

/** How often the control plane sweeps for lost agents and lapsed leases. */
export const LOST_SWEEP_INTERVAL_MS = 2_000;

/**
 * A run's lease, renewed with every heartbeat. As long as the silence that makes its agent lost: a run's lease
 * lapses exactly when its agent would be declared lost, so the two never disagree.
 */
export const RUN_LEASE_MS = AGENT_LOST_AFTER_MS;

/** The longest a dead agent's rooms wait before they are marked lost: issue 15 asks for 15 s at most. */
export const WORST_LOSS_DETECTION_MS = AGENT_LOST_AFTER_MS + LOST_SWEEP_INTERVAL_MS;
