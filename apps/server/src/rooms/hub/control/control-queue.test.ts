import { describe, expect, it } from 'vitest';
import { ControlQueue } from './control-queue';

/** Members in join order; ids starting with 'owner' are the owner's connections. */
function room(...ids: string[]) {
  const members = new Set(ids);
  const queue = new ControlQueue({
    has: (id) => members.has(id),
    isOwner: (id) => id.startsWith('owner'),
    ids: () => members.values(),
  });
  for (const id of ids) queue.joined(id);
  return {
    queue,
    join(id: string) {
      members.add(id);
      return queue.joined(id);
    },
    leave(id: string) {
      members.delete(id);
      return queue.left(id);
    },
  };
}

describe('control', () => {
  it('starts with the owner in control when the owner is there', () => {
    expect(room('ann', 'owner').queue.state()).toEqual({ controllerId: 'owner', queue: [] });
  });

  it('gives the wheel to the owner who joins a room nobody drives, and not to a second owner tab', () => {
    const r = room('ann');
    expect(r.queue.state().controllerId).toBeNull();
    r.join('owner');
    r.join('owner-tab2');
    expect(r.queue.state().controllerId).toBe('owner');
  });

  it('queues requests in order, ignores repeats, and lets a member cancel', () => {
    const { queue } = room('owner', 'ann', 'bob', 'cy');
    queue.request('bob');
    queue.request('ann');
    expect(queue.request('bob')).toEqual({ ok: true, changed: false });
    queue.request('cy');
    expect(queue.state().queue).toEqual(['bob', 'ann', 'cy']);
    queue.cancel('ann');
    expect(queue.state().queue).toEqual(['bob', 'cy']);
  });

  it('grants a request at once when nobody is in control', () => {
    const { queue } = room('ann', 'bob');
    queue.request('bob');
    expect(queue.state()).toEqual({ controllerId: 'bob', queue: [] });
  });

  it('lets the controller or the owner grant, and nobody else', () => {
    const { queue } = room('owner', 'ann', 'bob');
    queue.request('ann');
    expect(queue.grant('bob', 'ann')).toEqual({ ok: false, code: 'CANNOT_GRANT' });
    expect(queue.grant('owner', 'ann')).toEqual({ ok: true, changed: true });
    expect(queue.state()).toEqual({ controllerId: 'ann', queue: [] });
    expect(queue.grant('ann', 'bob').ok).toBe(true);
    expect(queue.state().controllerId).toBe('bob');
    // The owner grants even when someone else holds control.
    expect(queue.grant('owner', 'ann').ok).toBe(true);
    expect(queue.state().controllerId).toBe('ann');
  });

  it('refuses to grant to someone who is not in the room', () => {
    const { queue } = room('owner', 'ann');
    expect(queue.grant('owner', 'ghost')).toEqual({ ok: false, code: 'NOT_A_MEMBER' });
  });

  it('passes control on release to the first raised hand, then back to the owner', () => {
    const { queue } = room('owner', 'ann', 'bob');
    queue.request('ann');
    queue.request('bob');
    queue.release('owner');
    expect(queue.state()).toEqual({ controllerId: 'ann', queue: ['bob'] });
    queue.release('ann');
    expect(queue.state()).toEqual({ controllerId: 'bob', queue: [] });
    queue.release('bob');
    expect(queue.state()).toEqual({ controllerId: 'owner', queue: [] });
  });

  it('leaves the wheel free when the owner releases with nobody waiting', () => {
    const { queue } = room('owner', 'ann');
    queue.release('owner');
    expect(queue.state().controllerId).toBeNull();
  });

  it('only lets the controller release', () => {
    const { queue } = room('owner', 'ann');
    expect(queue.release('ann')).toEqual({ ok: false, code: 'NOT_CONTROLLER' });
  });

  it('lets the owner take control back at any time, and only the owner', () => {
    const { queue } = room('owner', 'ann', 'bob');
    queue.grant('owner', 'ann');
    queue.request('bob');
    expect(queue.take('bob')).toEqual({ ok: false, code: 'NOT_OWNER' });
    expect(queue.take('owner')).toEqual({ ok: true, changed: true });
    expect(queue.state()).toEqual({ controllerId: 'owner', queue: ['bob'] });
  });

  it('hands control on when the controller leaves, and drops leavers from the queue', () => {
    const r = room('owner', 'ann', 'bob');
    r.queue.grant('owner', 'ann');
    r.queue.request('bob');
    r.leave('ann');
    expect(r.queue.state()).toEqual({ controllerId: 'bob', queue: [] });
    r.queue.grant('bob', 'owner');
    r.queue.request('bob');
    r.leave('bob');
    expect(r.queue.state()).toEqual({ controllerId: 'owner', queue: [] });
    r.leave('owner');
    expect(r.queue.state()).toEqual({ controllerId: null, queue: [] });
  });
});
