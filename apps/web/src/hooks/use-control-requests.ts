// Tells the people who can hand over control (the owner, and whoever drives) that someone asked for it: a toast
// naming the requester with Give control and Dismiss, once per request, and a short chime unless turned off.
import { useLingui } from '@lingui/react/macro';
import type { TClientMessageInput, TMember } from '@rooms/api/room-protocol';
import { dismissToast, showToast } from '@rooms/ui/toaster';
import { useCallback, useEffect, useRef, useState } from 'react';

/** 'off' when this browser turned the chime off; on by default. */
const SOUND_KEY = 'rooms.control-request-sound';

export function useControlRequests({
  members,
  you,
  controllerId,
  queue,
  send,
}: {
  members: TMember[];
  you: string | null;
  controllerId: string | null;
  queue: string[];
  send: (message: TClientMessageInput) => boolean;
}) {
  const { t } = useLingui();
  const [sound, setSoundState] = useState(() => globalThis.localStorage?.getItem(SOUND_KEY) !== 'off');
  const isOwner = members.some((member) => member.id === you && member.isOwner);
  const canGrant = you !== null && (isOwner || controllerId === you);

  // Requester → the toast of their request. An entry stays (so a dismissed request is not toasted again on the
  // next snapshot) until the requester leaves the queue: granted, cancelled, gone, or handed control on release.
  const toasts = useRef(new Map<string, number>());
  // The newest of what the toast's buttons and the chime use, without making them reasons to toast again.
  // The texts are made here, where the Lingui macro sees them, in the language of the latest render.
  const texts = { asks: t`Asks for control of the browser`, give: t`Give control`, dismiss: t`Dismiss` };
  const latest = useRef({ send, texts, sound });
  useEffect(() => {
    latest.current = { send, texts, sound };
  });

  useEffect(() => {
    const shown = toasts.current;
    for (const [memberId, toast] of shown) {
      if (canGrant && queue.includes(memberId)) continue;
      dismissToast(toast);
      shown.delete(memberId);
    }
    if (!canGrant) return;
    let fresh = false;
    for (const memberId of queue) {
      const requester = members.find((member) => member.id === memberId);
      if (shown.has(memberId) || memberId === you || !requester) continue;
      const { texts, send } = latest.current;
      const give = () => send({ type: 'control/grant', memberId });
      shown.set(
        memberId,
        showToast({
          severity: 'info',
          // The name alone is the title, as a message from that person would be.
          summary: requester.nickname,
          detail: texts.asks,
          life: Number.POSITIVE_INFINITY,
          actions: [
            { label: texts.give, onClick: give, primary: true },
            { label: texts.dismiss, onClick: () => undefined },
          ],
        }),
      );
      fresh = true;
    }
    if (fresh && latest.current.sound) chime();
  }, [canGrant, queue, members, you]);

  // Leaving the room takes its requests along.
  useEffect(() => {
    const shown = toasts.current;
    return () => {
      for (const toast of shown.values()) dismissToast(toast);
      shown.clear();
    };
  }, []);

  const setSound = useCallback((on: boolean) => {
    globalThis.localStorage?.setItem(SOUND_KEY, on ? 'on' : 'off');
    setSoundState(on);
    // A sample of what it sounds like; being in a click, it also lets the page play sound from now on.
    if (on) chime();
  }, []);

  return { canGrant, sound, setSound };
}

let audio: AudioContext | null = null;

/** Two short soft tones. Without a click on the page yet the browser keeps sound off, and so does this. */
function chime(): void {
  try {
    audio ??= new AudioContext();
    const context = audio;
    const asked = performance.now();
    void context
      .resume()
      .then(() => {
        // A context that was blocked resumes only at the next click: a chime then would be about nothing.
        if (performance.now() - asked < 500) tones(context);
      })
      .catch(() => undefined);
  } catch {
    // No Web Audio here: the toast alone says it.
  }
}

function tones(context: AudioContext): void {
  const start = context.currentTime + 0.01;
  for (const [offset, frequency] of [
    [0, 660],
    [0.13, 880],
  ] as const) {
    const at = start + offset;
    const gain = context.createGain();
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.08, at + 0.015);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.18);
    gain.connect(context.destination);
    const tone = context.createOscillator();
    tone.type = 'sine';
    tone.frequency.value = frequency;
    tone.connect(gain);
    tone.start(at);
    tone.stop(at + 0.2);
  }
}
