// The chat domain as members see it: delivery, the history a joiner is shown, the per-person limit, the store
// across runs, and a banned person's messages taken away.
import { afterEach, describe, expect, it } from 'vitest';
import { hubWithMembers, stopHubSessions } from '../../../testing/rooms/hub-members';

afterEach(stopHubSessions);

describe('chat', () => {
  it('delivers to everyone, the sender included', () => {
    const { hub, join } = hubWithMembers();
    const owner = join('owner-user');
    const guest = join(null);
    hub.handle(guest.id, { type: 'chat/send', text: 'hello' });
    expect(owner.peer.last('chat/message')?.message).toMatchObject({ text: 'hello', memberId: guest.id });
    expect(guest.peer.last('chat/message')?.message.text).toBe('hello');
  });

  it('shows joiners the last 100 messages', () => {
    let now = 0;
    const { hub, join } = hubWithMembers({}, () => now);
    const owner = join('owner-user', 'Olga');
    for (let i = 0; i < 105; i++) {
      now += 1000;
      hub.handle(owner.id, { type: 'chat/send', text: `message ${i}` });
    }
    const history = join(null, 'Late').peer.last('chat/history')?.messages ?? [];
    expect(history).toHaveLength(100);
    expect(history[0]).toMatchObject({ text: 'message 5', nickname: 'Olga', memberId: owner.id });
    expect(history.at(-1)?.text).toBe('message 104');
  });

  it("limits each member to 5 messages in 5 seconds: 'You are sending messages too fast'", () => {
    let now = 0;
    const { hub, join } = hubWithMembers({}, () => now);
    const owner = join('owner-user');
    const guest = join(null);
    for (let i = 0; i < 6; i++) hub.handle(guest.id, { type: 'chat/send', text: `m${i}` });
    expect(guest.peer.last('system/error')).toMatchObject({
      code: 'RATE_LIMITED',
      message: 'You are sending messages too fast',
    });
    // Another member is not held back by it.
    hub.handle(owner.id, { type: 'chat/send', text: 'fine' });
    expect(owner.peer.errors()).toEqual([]);
    now += 5000;
    hub.handle(guest.id, { type: 'chat/send', text: 'later' });
    expect(owner.peer.of('chat/message').map((m) => m.message.text)).toEqual([
      'm0',
      'm1',
      'm2',
      'm3',
      'm4',
      'fine',
      'later',
    ]);
  });

  it('counts the limit per person: a second tab or coming back gives no fresh allowance', () => {
    let now = 0;
    const { hub, enter } = hubWithMembers({}, () => now);
    enter({ userId: 'owner-user' }, 'Olga');
    const first = enter({ userId: null, guestId: 'browser-1' }, 'Gus');
    for (let i = 0; i < 3; i++) hub.handle(first.id, { type: 'chat/send', text: `m${i}` });
    const secondTab = enter({ userId: null, guestId: 'browser-1' }, 'Gus');
    for (let i = 3; i < 5; i++) hub.handle(secondTab.id, { type: 'chat/send', text: `m${i}` });
    hub.leave(first.id);
    hub.leave(secondTab.id);
    const back = enter({ userId: null, guestId: 'browser-1' }, 'Gus');
    hub.handle(back.id, { type: 'chat/send', text: 'one more' });
    expect(back.peer.errors()).toEqual(['RATE_LIMITED']);
    now += 5000;
    hub.handle(back.id, { type: 'chat/send', text: 'later' });
    expect(back.peer.last('chat/message')?.message.text).toBe('later');
  });

  it("starts with the room's earlier messages, and stores each new one", async () => {
    const stored: string[] = [];
    const earlier = [
      {
        id: 'earlier-1',
        memberId: '00000000-0000-4000-8000-000000000001',
        nickname: 'Olga',
        text: 'before the restart',
        at: 1,
        author: { userId: 'owner-user', guestId: null },
      },
    ];
    const { hub, enter } = hubWithMembers({}, undefined, undefined, {
      earlier,
      store: {
        append: async (records) => void stored.push(...records.map((record) => record.text)),
        forget: async () => {},
      },
    });
    const owner = enter({ userId: 'owner-user' }, 'Olga');
    expect(owner.peer.last('chat/history')?.messages).toEqual([
      {
        id: 'earlier-1',
        memberId: earlier[0]!.memberId,
        nickname: 'Olga',
        text: 'before the restart',
        at: 1,
      },
    ]);
    hub.handle(owner.id, { type: 'chat/send', text: 'after it' });
    hub.handle(owner.id, { type: 'chat/send', text: 'and again' });
    await expect.poll(() => stored).toEqual(['after it', 'and again']);
    const late = enter({ userId: null, guestId: 'browser-1' }, 'Gus');
    expect(late.peer.last('chat/history')?.messages.map((message) => message.text)).toEqual([
      'before the restart',
      'after it',
      'and again',
    ]);
  });

  it("takes a banned person's messages away, from everyone's history and from the store", async () => {
    const forgotten: unknown[] = [];
    const { hub, enter } = hubWithMembers({}, undefined, undefined, {
      store: { append: async () => {}, forget: async (authors) => void forgotten.push(authors) },
    });
    const owner = enter({ userId: 'owner-user' }, 'Olga');
    const spammer = enter({ userId: null, guestId: 'browser-1' }, 'Spam');
    const ann = enter({ userId: 'ann' }, 'Ann');
    hub.handle(spammer.id, { type: 'chat/send', text: 'buy now' });
    hub.handle(ann.id, { type: 'chat/send', text: 'hello' });
    hub.handle(spammer.id, { type: 'chat/send', text: 'buy more' });
    hub.handle(owner.id, { type: 'member/ban', memberId: spammer.id });
    expect(ann.peer.last('chat/history')?.messages.map((message) => message.text)).toEqual(['hello']);
    const late = enter({ userId: null, guestId: 'browser-2' }, 'Late');
    expect(late.peer.last('chat/history')?.messages.map((message) => message.text)).toEqual(['hello']);
    await expect.poll(() => forgotten).toEqual([[{ userId: null, guestId: 'browser-1' }]]);
    // A kick is not a ban: what a kicked person wrote stays.
    hub.handle(ann.id, { type: 'chat/send', text: 'still here' });
    hub.handle(owner.id, { type: 'member/kick', memberId: ann.id });
    expect(late.peer.last('chat/history')?.messages.map((message) => message.text)).toEqual(['hello']);
    expect(
      enter({ userId: null, guestId: 'browser-3' }, 'Later').peer.last('chat/history')?.messages,
    ).toHaveLength(2);
  });
});
