import { describe, expect, it } from 'vitest';
import { allocationSpec } from './allocation-spec';

describe('allocationSpec', () => {
  const spec = allocationSpec({ fleet: 'room-agents', region: 'eu-west' });
  const fleetAndRegion = { 'agones.dev/fleet': 'room-agents', 'cloud-browser-rooms/region': 'eu-west' };

  it('takes an Allocated agent with a free room slot before a Ready one, both of the fleet and region', () => {
    expect(spec.selectors).toEqual([
      { matchLabels: fleetAndRegion, gameServerState: 'Allocated', counters: { rooms: { minAvailable: 1 } } },
      { matchLabels: fleetAndRegion, gameServerState: 'Ready', counters: { rooms: { minAvailable: 1 } } },
    ]);
  });

  it('prefers the fullest agent, and takes its slot in the same update', () => {
    expect(spec.scheduling).toBe('Packed');
    expect(spec.priorities).toEqual([{ type: 'Counter', key: 'rooms', order: 'Ascending' }]);
    expect(spec.counters).toEqual({ rooms: { action: 'Increment', amount: 1 } });
  });

  it('labels nothing per room (an agent holds many) and passes the annotations on', () => {
    const annotated = allocationSpec({
      fleet: 'room-agents',
      region: 'eu-west',
      annotations: { 'cloud-browser-rooms/epoch': '3' },
    });
    expect(annotated.metadata).toEqual({ annotations: { 'cloud-browser-rooms/epoch': '3' } });
    expect(spec.metadata).toEqual({ annotations: {} });
  });
});
