// The input and browser domains as members see them: only the controller drives, in the order it sent, and
// control changes hands as everyone is shown.
import { afterEach, describe, expect, it } from 'vitest';
import { hubWithMembers, stopHubSessions } from '../../../testing/rooms/hub-members';

afterEach(stopHubSessions);

describe('driving the browser', () => {
  const click = { type: 'input/pointer', action: 'down', x: 0.5, y: 0.5, button: 'left' } as const;
  const pointer = { ...click, buttons: 1, clickCount: 1, modifiers: 0 };

  it("applies only the controller's input; the others are told, once a second", async () => {
    let now = 1_000_000;
    const { hub, session, join } = hubWithMembers({}, () => now);
    const owner = join('owner-user');
    const guest = join(null);
    hub.handle(guest.id, pointer);
    hub.handle(guest.id, pointer);
    await settle();
    expect(session.inputs).toEqual([]);
    expect(guest.peer.errors()).toEqual(['NOT_CONTROLLER']);
    now += 1000;
    hub.handle(guest.id, { type: 'browser/navigate', url: 'https://example.com/' });
    expect(guest.peer.errors()).toEqual(['NOT_CONTROLLER', 'NOT_CONTROLLER']);

    hub.handle(owner.id, pointer);
    hub.handle(owner.id, { type: 'input/text', text: 'hi' });
    await settle();
    expect(session.inputs.map((input) => input.type)).toEqual(['input/pointer', 'input/text']);

    hub.handle(guest.id, { type: 'control/request' });
    hub.handle(owner.id, { type: 'control/grant', memberId: guest.id });
    hub.handle(guest.id, pointer);
    await settle();
    expect(session.inputs).toHaveLength(3);
    hub.handle(owner.id, { type: 'control/take' });
    hub.handle(guest.id, pointer);
    await settle();
    expect(session.inputs).toHaveLength(3);
  });

  it("runs the controller's browser controls in order and reports a failure to the sender only", async () => {
    const { hub, session, join } = hubWithMembers();
    const owner = join('owner-user');
    const guest = join(null);
    hub.handle(owner.id, { type: 'browser/navigate', url: 'https://example.com/a' });
    hub.handle(owner.id, { type: 'browser/tab-open', url: 'https://example.com/b' });
    hub.handle(owner.id, { type: 'browser/navigate', url: 'file:///etc/passwd' });
    await settle();
    expect(session.tabs().map((tab) => tab.url)).toEqual(['https://example.com/a', 'https://example.com/b']);
    expect(guest.peer.last('browser/tabs')?.tabs).toHaveLength(2);
    expect(owner.peer.last('system/error')).toMatchObject({
      code: 'BROWSER_ACTION_FAILED',
      message: 'This address is not allowed',
      about: 'browser/navigate',
    });
    expect(guest.peer.errors()).toEqual([]);
  });

  it("answers the controller's find in the page to the controller alone, and refuses a watcher's", async () => {
    const { hub, join } = hubWithMembers();
    const owner = join('owner-user');
    const guest = join(null);
    hub.handle(owner.id, { type: 'browser/navigate', url: 'https://example.com/press-me' });
    hub.handle(owner.id, { type: 'browser/find', text: 'PRESS', backwards: false });
    hub.handle(owner.id, { type: 'browser/find', text: 'absent', backwards: true });
    hub.handle(guest.id, { type: 'browser/find', text: 'press', backwards: false });
    await settle();
    expect(owner.peer.of('browser/found')).toEqual([
      { type: 'browser/found', text: 'PRESS', found: true },
      { type: 'browser/found', text: 'absent', found: false },
    ]);
    expect(guest.peer.of('browser/found')).toEqual([]);
    expect(guest.peer.errors()).toEqual(['NOT_CONTROLLER']);
  });

  it('shows every control change to everyone', () => {
    const { hub, join } = hubWithMembers();
    const owner = join('owner-user');
    const ann = join('ann');
    const bob = join('bob');
    hub.handle(ann.id, { type: 'control/request' });
    hub.handle(bob.id, { type: 'control/request' });
    expect(owner.peer.last('control/state')).toMatchObject({
      controllerId: owner.id,
      queue: [ann.id, bob.id],
    });
    hub.handle(bob.id, { type: 'control/grant', memberId: bob.id });
    expect(bob.peer.errors()).toEqual(['CANNOT_GRANT']);
    hub.handle(owner.id, { type: 'control/release' });
    expect(bob.peer.last('control/state')).toMatchObject({ controllerId: ann.id, queue: [bob.id] });
  });
});

function settle() {
  return new Promise((resolve) => setTimeout(resolve, 5));
}
