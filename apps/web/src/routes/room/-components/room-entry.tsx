// The two steps before a room: the confirmation that entering may disturb the people in it, then the nickname.
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
import { type FormEvent, useId, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { translateServerText } from '../../../lib/messages';

export function EnterConfirmDialog({ onEnter, onLeave }: { onEnter: () => void; onLeave: () => void }) {
  return (
    <ConfirmDialog
      open
      title={<Trans>Enter the room?</Trans>}
      confirmLabel={<Trans>Enter</Trans>}
      onConfirm={onEnter}
      onCancel={onLeave}
      testId="enter-confirm"
    >
      <Trans>Entering may disturb other users who are in this room.</Trans>
    </ConfirmDialog>
  );
}

export function NicknameDialog({
  initial,
  onJoin,
  onLeave,
}: {
  initial: string;
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
            <DialogTitle>
              <Trans>Your nickname</Trans>
            </DialogTitle>
            <DialogDescription>
              <Trans>The others in the room see you by this name.</Trans>
            </DialogDescription>
          </DialogHeader>
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
              onChange={(event) => setNickname(event.target.value)}
              data-testid="nickname-input"
            />
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onLeave}>
              <Trans>Cancel</Trans>
            </Button>
            <Button type="submit" data-testid="nickname-submit">
              <Trans>Join</Trans>
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
