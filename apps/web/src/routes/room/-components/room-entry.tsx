// The entry before a room, in one step and only when needed (room-experience.tsx decides): the nickname, and
// when others are inside, the spec's confirmation that entering may disturb them.
import { Trans, useLingui } from '@lingui/react/macro';
import { NICKNAME_MAX_LENGTH, ZNickname } from '@rooms/api/room-protocol';
import { Button } from '@rooms/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@rooms/ui/dialog';
import { Input } from '@rooms/ui/input';
import { Label } from '@rooms/ui/label';
import { showToast } from '@rooms/ui/toaster';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { translateServerText } from '../../../lib/messages';

export function EntryDialog({
  roomName,
  othersInside,
  details,
  initial,
  refusal,
  onJoin,
  onLeave,
}: {
  roomName: string;
  /** People in the room now: with anyone inside, entering asks for the confirmation too. */
  othersInside: number;
  /** More about the room (who invites, the zone, the remark) on a shared link. */
  details?: ReactNode;
  initial: string;
  /** Why the room refused the last nickname, shown above the field. */
  refusal?: string | undefined;
  onJoin: (nickname: string) => void;
  onLeave: () => void;
}) {
  const { i18n, t } = useLingui();
  const id = useId();
  const [nickname, setNickname] = useState(initial.slice(0, NICKNAME_MAX_LENGTH));

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = ZNickname.safeParse(nickname);
    if (!parsed.success) {
      const text = parsed.error.issues[0]?.message ?? 'Please enter your nickname';
      return showToast({ severity: 'warn', summary: t`Warning`, detail: translateServerText(i18n, text) });
    }
    onJoin(parsed.data);
  }

  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onLeave())}>
      <DialogContent closeLabel={t`Close`} className="md:max-w-md" data-testid="nickname-dialog">
        <form className="grid gap-4" onSubmit={submit} noValidate>
          <DialogHeader>
            <DialogTitle data-testid="entry-room-name">{roomName}</DialogTitle>
            <DialogDescription>
              {details ?? <Trans>The others in the room see you by your nickname.</Trans>}
            </DialogDescription>
          </DialogHeader>
          {othersInside > 0 ? (
            <p className="rounded-md bg-warning/15 px-3 py-2 text-sm" data-testid="enter-confirm">
              <Trans>Entering may disturb other users who are in this room.</Trans>{' '}
              {othersInside === 1 ? (
                <Trans>One person is inside.</Trans>
              ) : (
                <Trans>{othersInside} people are inside.</Trans>
              )}
            </p>
          ) : null}
          <div className="grid gap-2">
            <Label htmlFor={`${id}-nickname`}>
              <Trans>Nickname</Trans>
            </Label>
            <Input
              id={`${id}-nickname`}
              value={nickname}
              maxLength={NICKNAME_MAX_LENGTH}
              autoFocus
              placeholder={t`Please enter your nickname`}
              aria-invalid={refusal ? true : undefined}
              onChange={(event) => setNickname(event.target.value)}
              data-testid="nickname-input"
            />
            {refusal ? (
              <p className="text-destructive text-sm" data-testid="nickname-refusal">
                {refusal}
              </p>
            ) : null}
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onLeave}>
              <Trans>Cancel</Trans>
            </Button>
            <Button type="submit" data-testid="nickname-submit">
              <Trans>Enter</Trans>
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
