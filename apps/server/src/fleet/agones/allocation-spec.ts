// What the control plane asks Agones for when a room starts: the high-density pattern for GameServers that each
// hold many rooms. A GameServer's `rooms` Counter is its room slots (capacity: the agent's ROOM_CAPACITY; count:
// rooms running or promised to it). An Allocated agent with a slot left is taken before a Ready one, so agents fill
// up before the Fleet's buffer is touched and a new agent is taken only when all are full; among the candidates
// the fullest goes first, so lightly used agents empty out and can go back to the buffer (and be scaled away).
// The allocation itself takes the slot (the count's increment happens in the same update that picks the
// GameServer), so two starts at once cannot both take an agent's last slot.

/** The label every GameServer of a region's Fleet carries (deploy/kubernetes), and allocations select on. */
export const REGION_LABEL = 'cloud-browser-rooms/region';
/** Agones labels every GameServer of a Fleet with the Fleet's name. */
export const FLEET_LABEL = 'agones.dev/fleet';
/** The GameServers' Counter of room slots (deploy/kubernetes/base/room-agents.yaml). */
export const ROOMS_COUNTER = 'rooms';

export interface TAllocationSpecRequest {
  fleet: string;
  /** The region (zone) code the room runs in. */
  region: string;
  /** Annotations for the GameServer (e.g. the run's epoch); the last allocation's win. */
  annotations?: Record<string, string>;
}

export function allocationSpec(request: TAllocationSpecRequest) {
  const matchLabels = { [FLEET_LABEL]: request.fleet, [REGION_LABEL]: request.region };
  const withSlotLeft = { [ROOMS_COUNTER]: { minAvailable: 1 } };
  return {
    // Tried in order: the first selector that matches any GameServer decides.
    selectors: [
      { matchLabels, gameServerState: 'Allocated', counters: withSlotLeft },
      { matchLabels, gameServerState: 'Ready', counters: withSlotLeft },
    ],
    scheduling: 'Packed',
    // Ascending: the least room left first.
    priorities: [{ type: 'Counter', key: ROOMS_COUNTER, order: 'Ascending' }],
    counters: { [ROOMS_COUNTER]: { action: 'Increment', amount: 1 } },
    metadata: { annotations: request.annotations ?? {} },
  };
}
