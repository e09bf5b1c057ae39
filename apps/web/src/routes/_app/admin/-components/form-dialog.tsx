// A small form in a dialog: its fields, the server's (or the form's own) error above the buttons, and a submit
// button that waits for the call. The caller closes it on success.
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@rooms/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@rooms/ui/dialog';
import { Spinner } from '@rooms/ui/spinner';
import type { ReactNode } from 'react';

export function FormDialog({
  open,
  title,
  description,
  children,
  submitLabel,
  pending,
  error,
  errorId,
  destructive = false,
  onSubmit,
  onClose,
  testId,
}: {
  open: boolean;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  submitLabel: ReactNode;
  pending: boolean;
  error: string | null;
  /** The error's id, for the field it is about to name in aria-describedby. */
  errorId?: string;
  destructive?: boolean;
  onSubmit: () => void;
  onClose: () => void;
  testId?: string;
}) {
  const { t } = useLingui();
  return (
    <Dialog open={open} onOpenChange={(next) => (next || pending ? undefined : onClose())}>
      <DialogContent closeLabel={t`Close`} className="md:max-w-lg" data-testid={testId}>
        <form
          className="grid gap-4"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            if (!pending) onSubmit();
          }}
        >
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            {description ? <DialogDescription>{description}</DialogDescription> : null}
          </DialogHeader>
          {children}
          {error ? (
            <p id={errorId} role="alert" className="text-destructive text-sm" data-testid="form-error">
              {error}
            </p>
          ) : null}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose} disabled={pending}>
              <Trans>Cancel</Trans>
            </Button>
            <Button type="submit" variant={destructive ? 'destructive' : 'default'} disabled={pending}>
              {pending ? <Spinner className="size-4" /> : null}
              {submitLabel}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** A labelled field of a form dialog. */
export function Field({
  id,
  label,
  hint,
  children,
}: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="grid gap-1.5">
      <label htmlFor={id} className="font-medium text-sm">
        {label}
      </label>
      {children}
      {hint ? <p className="text-muted-foreground text-xs">{hint}</p> : null}
    </div>
  );
}
