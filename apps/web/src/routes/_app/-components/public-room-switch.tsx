// "Show in the public square" for the create dialog and the share section: turning it on asks first with the
// danger warning (anyone may watch a public room); while it is on, the warning stays in view. Public and the
// share password are two settings: the switch never touches the password, and says so while both are set.
import { Trans } from '@lingui/react/macro';
import { Checkbox } from '@rooms/ui/checkbox';
import { Label } from '@rooms/ui/label';
import { GlobeIcon, TriangleAlertIcon } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';

export function PublicRoomSwitch(props: {
  checked: boolean;
  disabled?: boolean;
  onChange: (isPublic: boolean) => void;
  testId: string;
  /** The room has (or will have) a share password, which stays for when it is private again. */
  hasPassword?: boolean;
}) {
  const [confirming, setConfirming] = useState(false);
  return (
    <div className="grid gap-2">
      <Label className="font-normal">
        {/* Busy rather than disabled while a change is saved: the confirmation gives the focus back to the checkbox
            just as the save starts, and a disabled checkbox cannot take it, so it fell to <body>. */}
        <Checkbox
          checked={props.checked}
          aria-disabled={props.disabled || undefined}
          onCheckedChange={(checked) => {
            if (props.disabled) return;
            if (checked === true) setConfirming(true);
            else props.onChange(false);
          }}
          className="aria-disabled:cursor-not-allowed aria-disabled:opacity-50"
          data-testid={props.testId}
        />
        <GlobeIcon className="size-4" />
        <Trans>Show in the public square</Trans>
      </Label>
      {props.checked ? (
        <p className="flex items-start gap-2 rounded-md bg-destructive/15 p-2 text-destructive text-sm">
          <TriangleAlertIcon className="mt-0.5 size-4 shrink-0" />
          <Trans>A public room is open to anyone, without a password.</Trans>
        </p>
      ) : null}
      {props.checked && props.hasPassword ? (
        <p className="text-muted-foreground text-xs" data-testid={`${props.testId}-password-kept`}>
          <Trans>
            The room password is kept: nobody is asked for it while the room is public, and invited guests
            need it again once the room is private.
          </Trans>
        </p>
      ) : null}
      <ConfirmDialog
        open={confirming}
        title={<Trans>Make this room public?</Trans>}
        confirmLabel={<Trans>Make public</Trans>}
        destructive
        testId="room-public-confirm"
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          props.onChange(true);
        }}
      >
        <Trans>
          A public room is open to anyone, without a password: it is listed in the public square, anyone
          logged in can enter, watch and ask for control. Only make a room public if you are happy for
          strangers to join.
        </Trans>
      </ConfirmDialog>
    </div>
  );
}
