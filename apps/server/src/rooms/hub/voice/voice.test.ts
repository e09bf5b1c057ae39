// Voice as members hear it, through a real hub with peers that record what a socket would have carried.
import { decodeVoiceFrame, encodeVoiceFrame, VOICE_FRAME_RATE_LIMIT } from '@rooms/api/room-protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { hubWithMembers, type RecordingPeer, stopHubSessions } from '../../../testing/rooms/hub-members';

afterEach(stopHubSessions);

const packet = (sequence: number) =>
  encodeVoiceFrame({ sequence, timestamp: sequence * 20, data: new Uint8Array([0x78, sequence & 0xff]) });

function voiceOf(peer: RecordingPeer) {
  return peer.frames.flatMap((frame) => {
    const voice = decodeVoiceFrame(frame);
    return voice ? [voice] : [];
  });
}

function room() {
  let clock = 0;
  const { hub, join, enter } = hubWithMembers({}, () => clock);
  const owner = join('owner-user', 'Olga');
  const ann = enter({ userId: 'ann' }, 'Ann');
  const annTab = enter({ userId: 'ann' }, 'Ann');
  const bob = join(null, 'Bob');
  return { hub, owner, ann, annTab, bob, tick: (ms: number) => (clock += ms) };
}

describe('talking', () => {
  it('passes a speaker’s packets to everyone else, with the speaker written in, while they talk', () => {
    const { hub, owner, ann, annTab, bob } = room();
    expect(bob.peer.last('voice/state')).toEqual({
      type: 'voice/state',
      enabled: true,
      speaking: [],
      muted: [],
    });
    hub.voiceFrame(ann.id, packet(0));
    expect(voiceOf(bob.peer)).toEqual([]);
    hub.handle(ann.id, { type: 'voice/talk', talking: true });
    expect(owner.peer.last('voice/state')?.speaking).toEqual([ann.id]);
    hub.voiceFrame(ann.id, packet(1));
    for (const listener of [owner, bob]) {
      expect(voiceOf(listener.peer)).toMatchObject([{ sequence: 1, timestamp: 20, speaker: ann.id }]);
    }
    // Never back to the speaker, nor to their own other tab.
    expect(voiceOf(ann.peer)).toEqual([]);
    expect(voiceOf(annTab.peer)).toEqual([]);
    hub.handle(ann.id, { type: 'voice/talk', talking: false });
    hub.voiceFrame(ann.id, packet(2));
    expect(voiceOf(bob.peer)).toHaveLength(1);
    expect(bob.peer.last('voice/state')?.speaking).toEqual([]);
  });

  it('drops packets beyond the rate limit, and stops a speaker who leaves', () => {
    const { hub, owner, bob, tick } = room();
    hub.handle(bob.id, { type: 'voice/talk', talking: true });
    for (let i = 0; i < VOICE_FRAME_RATE_LIMIT + 40; i++) hub.voiceFrame(bob.id, packet(i));
    expect(voiceOf(owner.peer)).toHaveLength(VOICE_FRAME_RATE_LIMIT);
    tick(1000);
    hub.voiceFrame(bob.id, packet(999));
    expect(voiceOf(owner.peer)).toHaveLength(VOICE_FRAME_RATE_LIMIT + 1);
    hub.leave(bob.id);
    expect(owner.peer.last('voice/state')?.speaking).toEqual([]);
  });

  it('skips a listener whose socket is backed up', () => {
    const { hub, owner, bob } = room();
    owner.peer.bufferedAmount = 10 * 1024 * 1024;
    hub.handle(bob.id, { type: 'voice/talk', talking: true });
    hub.voiceFrame(bob.id, packet(0));
    expect(voiceOf(owner.peer)).toEqual([]);
  });
});

describe('the owner', () => {
  it('mutes a person for everyone, in all their tabs and after a rejoin, and lets them talk again', () => {
    const { hub, owner, ann, annTab, bob } = room();
    hub.handle(ann.id, { type: 'voice/talk', talking: true });
    hub.handle(owner.id, { type: 'voice/mute', memberId: ann.id, muted: true });
    expect(bob.peer.last('voice/state')).toMatchObject({ speaking: [], muted: [ann.id, annTab.id] });
    hub.handle(annTab.id, { type: 'voice/talk', talking: true });
    hub.voiceFrame(annTab.id, packet(0));
    expect(voiceOf(bob.peer)).toEqual([]);
    hub.leave(annTab.id);
    const back = hubMember(hub, 'ann');
    expect(bob.peer.last('voice/state')?.muted).toEqual([ann.id, back.id]);
    hub.handle(owner.id, { type: 'voice/mute', memberId: ann.id, muted: false });
    hub.handle(ann.id, { type: 'voice/talk', talking: true });
    hub.voiceFrame(ann.id, packet(1));
    expect(voiceOf(bob.peer)).toHaveLength(1);
  });

  it('turns voice off for the room, and only the owner may', () => {
    const { hub, owner, bob } = room();
    hub.handle(bob.id, { type: 'voice/enable', enabled: false });
    hub.handle(bob.id, { type: 'voice/mute', memberId: owner.id, muted: true });
    expect(bob.peer.errors()).toEqual(['NOT_OWNER', 'NOT_OWNER']);
    hub.handle(bob.id, { type: 'voice/talk', talking: true });
    hub.handle(owner.id, { type: 'voice/enable', enabled: false });
    expect(bob.peer.last('voice/state')).toEqual({
      type: 'voice/state',
      enabled: false,
      speaking: [],
      muted: [],
    });
    hub.handle(bob.id, { type: 'voice/talk', talking: true });
    hub.voiceFrame(bob.id, packet(0));
    expect(voiceOf(owner.peer)).toEqual([]);
    expect(owner.peer.last('voice/state')?.speaking).toEqual([]);
  });
});

/** Another seat of the account `userId`, joined now. */
function hubMember(hub: ReturnType<typeof room>['hub'], userId: string) {
  const peer = new (class {
    messages: unknown[] = [];
    bufferedAmount = 0;
    send(message: unknown) {
      this.messages.push(message);
    }
    sendFrame(_frame: Uint8Array, written: () => void) {
      written();
    }
    close() {}
  })();
  const joined = hub.join(peer, { userId }, 'Ann');
  if (!joined.ok) throw new Error(joined.code);
  return { id: joined.memberId, peer };
}
