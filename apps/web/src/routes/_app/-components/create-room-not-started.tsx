import { Trans } from '@lingui/react/macro';
import { Button } from '@rooms/ui/button';
import { DialogFooter } from '@rooms/ui/dialog';
import { Link } from '@tanstack/react-router';

/** Where the dialog ends when the room was created but its start was refused: the room waits on the dashboard. */
export function NotStarted({
  name,
  reason,
  outOfTime,
  onClose,
}: {
  name: string;
  reason: string;
  /** No room time left: the plans are where more comes from. */
  outOfTime: boolean;
  onClose: () => void;
}) {
  return (
    <div className="grid gap-4" data-testid="create-room-not-started">
      <div className="grid gap-1 rounded-md border border-warning/50 bg-warning/10 p-3 text-sm" role="alert">
        <p className="wrap-anywhere font-medium">
          <Trans>The room {name} was created, but it could not start.</Trans>
        </p>
        <p className="wrap-anywhere" data-testid="create-room-not-started-reason">
          {reason}
        </p>
        <p className="text-muted-foreground">
          <Trans>It waits, stopped, on your dashboard: start it from there once this is sorted out.</Trans>
        </p>
      </div>
      <DialogFooter>
        {outOfTime ? (
          <Button asChild variant="outline">
            <Link to="/planlist">
              <Trans>See plans</Trans>
            </Link>
          </Button>
        ) : null}
        <Button onClick={onClose} data-testid="create-room-not-started-close">
          <Trans>Close</Trans>
        </Button>
      </DialogFooter>
    </div>
  );
}
