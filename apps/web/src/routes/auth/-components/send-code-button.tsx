import { Trans } from '@lingui/react/macro';
import { Button } from '@rooms/ui/button';
import { Spinner } from '@rooms/ui/spinner';

/** Sends an e-mail code; during the cooldown it shows the seconds left and ignores clicks. */
export function SendCodeButton({
  remaining,
  pending,
  onSend,
}: {
  remaining: number;
  pending: boolean;
  onSend: () => void;
}) {
  return (
    <Button
      variant="secondary"
      className="min-w-32"
      disabled={pending || remaining > 0}
      onClick={() => {
        if (remaining > 0) return;
        onSend();
      }}
      data-testid="send-code"
    >
      {pending ? <Spinner /> : null}
      {remaining > 0 ? <Trans>Resend in {remaining}s</Trans> : <Trans>Send code</Trans>}
    </Button>
  );
}
