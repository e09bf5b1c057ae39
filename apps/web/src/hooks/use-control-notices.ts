// Tells the driver who lost control of the room's browser why: the owner took it back, someone (or they) gave it
// to another person, or they let go. Without it the picture just stops answering their mouse and keys.
import { useLingui } from '@lingui/react/macro';
import type { TControlChange, TMember } from '@rooms/api/room-protocol';
import { showToast } from '@rooms/ui/toaster';
import { useEffect, useRef } from 'react';

/** Longer than a toast's usual 3 s: it explains why input stopped working, which is read after the fact. */
const NOTICE_LIFE_MS = 6000;

export function useControlNotices({
  members,
  you,
  controllerId,
  change,
}: {
  members: TMember[];
  you: string | null;
  controllerId: string | null;
  change: TControlChange | null;
}) {
  const { t } = useLingui();
  const previous = useRef<string | null>(null);

  useEffect(() => {
    const had = previous.current;
    previous.current = controllerId;
    // Only a change the room announced (not the state on joining or rejoining) from this participant to another.
    if (you === null || had !== you || controllerId === you || !change) return;
    const name = (id: string | null) => members.find((member) => member.id === id)?.nickname ?? t`someone`;
    const to = controllerId === null ? null : name(controllerId);
    const byYou = change.byId === you;
    let detail: string;
    if (change.action === 'take') detail = t`${name(change.byId)} took control back.`;
    else if (change.action === 'grant')
      detail = byYou ? t`You gave control to ${to}.` : t`${name(change.byId)} gave control to ${to}.`;
    else if (change.action === 'release')
      detail = to ? t`You let go; ${to} has control now.` : t`You let go of control.`;
    else detail = to ? t`${to} has control now.` : t`Nobody has control now.`;
    showToast({
      severity: 'info',
      summary: t`You no longer control the browser`,
      detail,
      life: NOTICE_LIFE_MS,
    });
  }, [controllerId, you, change, members, t]);
}
