// Any member may report a room to the administrator (from the public square or the room) with a reason; the server keeps the
// report and limits how many one person sends.
import { Trans, useLingui } from '@lingui/react/macro';
import { REPORT_REASON_MAX_LENGTH } from '@rooms/api/client';
import { Button } from '@rooms/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@rooms/ui/dialog';
import { Label } from '@rooms/ui/label';
import { Spinner } from '@rooms/ui/spinner';
import { Textarea } from '@rooms/ui/textarea';
import { showToast } from '@rooms/ui/toaster';
import { useMutation } from '@tanstack/react-query';
import { FlagIcon } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { toastError, toastSuccess } from '../../../lib/notify';
import { trpcClient } from '../../../lib/trpc';

export function ReportRoomButton({
  roomId,
  password,
  className,
}: {
  roomId: string;
  password: string | undefined;
  className?: string;
}) {
  const { i18n, t } = useLingui();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const report = useMutation({
    mutationFn: (text: string) => trpcClient.room.reportRoom.mutate({ id: roomId, reason: text, password }),
    onSuccess: () => {
      toastSuccess(i18n, t`Thank you, the report was sent`);
      setReason('');
      setOpen(false);
    },
    onError: (error) => {
      const text = t`Failed to send the report`;
      toastError(i18n, error, { prefix: text, unreachable: text });
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!reason.trim()) {
      showToast({ severity: 'warn', summary: t`Warning`, detail: t`Please describe the problem` });
      return;
    }
    report.mutate(reason.trim());
  }

  return (
    <>
      <Button
        variant="ghost"
        size="icon"
        className={`size-8 ${className ?? ''}`}
        onClick={() => setOpen(true)}
        aria-label={t`Report this room`}
        title={t`Report this room`}
        data-testid="room-report"
      >
        <FlagIcon />
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent closeLabel={t`Close`} className="md:max-w-md" data-testid="room-report-dialog">
          <form className="grid gap-4" onSubmit={submit} noValidate>
            <DialogHeader>
              <DialogTitle>
                <Trans>Report this room</Trans>
              </DialogTitle>
              <DialogDescription>
                <Trans>Tell the administrator what is wrong in this room.</Trans>
              </DialogDescription>
            </DialogHeader>
            <div className="grid gap-2">
              <Label htmlFor={`${id}-reason`}>
                <Trans>Reason</Trans>
              </Label>
              <Textarea
                id={`${id}-reason`}
                value={reason}
                maxLength={REPORT_REASON_MAX_LENGTH}
                rows={4}
                onChange={(event) => setReason(event.target.value)}
                data-testid="room-report-reason"
              />
            </div>
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => setOpen(false)}>
                <Trans>Cancel</Trans>
              </Button>
              <Button type="submit" disabled={report.isPending} data-testid="room-report-submit">
                {report.isPending ? <Spinner /> : null}
                <Trans>Send report</Trans>
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
    </>
  );
}
