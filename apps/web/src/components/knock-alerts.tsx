// Knocks heard outside the room: an owner anywhere in the app is told that someone knocks at one of their running
// rooms ("Hana wants to join Movie night"), with the way into the room, where knocks are answered
// (routes/room/-components/knock-panel.tsx). Each knock is told once, and its toast goes when the knock does
// (answered from the room, given up, or timed out). Polled: outside a room the app keeps no socket open.
import { useLingui } from '@lingui/react/macro';
import { dismissToast, showToast } from '@rooms/ui/toaster';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { trpc } from '../lib/trpc';

/** About as often as an agent reports its rooms' knocks to the control plane (every heartbeat). */
const POLL_MS = 5000;

export function KnockAlerts() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const knocks = useQuery({
    ...trpc.room.getKnocks.queryOptions(),
    refetchInterval: POLL_MS,
    // A knock heard while the tab is hidden is waiting there when the owner comes back.
    refetchIntervalInBackground: true,
  });
  /** The toast of each knock told, by knock id. */
  const told = useRef(new Map<string, number>());

  useEffect(() => {
    if (!knocks.data) return;
    const waiting = new Set<string>();
    for (const { roomId, roomName, knocks: roomKnocks } of knocks.data) {
      for (const { id, nickname } of roomKnocks) {
        waiting.add(id);
        if (told.current.has(id)) continue;
        const toast = showToast({
          severity: 'info',
          summary: t`${nickname} wants to join ${roomName}`,
          detail: t`Let them in or turn them away from inside the room.`,
          life: Number.POSITIVE_INFINITY,
          actions: [
            {
              label: t`Open the room`,
              primary: true,
              onClick: () => void navigate({ to: '/room/$id', params: { id: roomId } }),
            },
          ],
        });
        told.current.set(id, toast);
      }
    }
    for (const [id, toast] of told.current) {
      if (waiting.has(id)) continue;
      dismissToast(toast);
      told.current.delete(id);
    }
  }, [knocks.data, navigate, t]);

  // Leaving the app's pages (into a room, or signing out) takes the alerts along.
  useEffect(
    () => () => {
      for (const toast of told.current.values()) dismissToast(toast);
    },
    [],
  );
  return null;
}
