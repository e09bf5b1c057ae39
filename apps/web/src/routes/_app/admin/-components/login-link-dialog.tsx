// The one-time sign-in link an administrator hands to a browser to act as the user (/admintologinuser/{token}).
import { msg } from '@lingui/core/macro';
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
import { Input } from '@rooms/ui/input';
import { showToast } from '@rooms/ui/toaster';
import { CopyIcon } from 'lucide-react';
import { formatDateTime } from '../../../../lib/format';

export function LoginLinkDialog({
  link,
  onClose,
}: {
  link: { url: string; expiresAt: Date } | null;
  onClose: () => void;
}) {
  const { i18n, t } = useLingui();
  // The server may answer with a path on this site; a link to copy elsewhere needs the origin.
  const url = link ? new URL(link.url, window.location.origin).href : '';
  const expires = link ? formatDateTime(link.expiresAt) : '';

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      showToast({ severity: 'success', summary: i18n._(msg`success`), detail: i18n._(msg`Link copied`) });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      showToast({
        severity: 'error',
        summary: i18n._(msg`Error`),
        detail: `${i18n._(msg`copy failed`)} ${reason}`,
      });
    }
  };

  return (
    <Dialog open={link !== null} onOpenChange={(next) => (next ? undefined : onClose())}>
      <DialogContent closeLabel={t`Close`} className="md:max-w-xl" data-testid="login-link-dialog">
        <DialogHeader>
          <DialogTitle>
            <Trans>Sign-in link</Trans>
          </DialogTitle>
          <DialogDescription>
            <Trans>
              Opening this link signs that browser in as the user. It works once, for 5 minutes (until{' '}
              {expires}).
            </Trans>
          </DialogDescription>
        </DialogHeader>
        <div className="flex gap-2">
          <Input
            readOnly
            value={url}
            aria-label={t`Sign-in link`}
            data-testid="login-link"
            className="font-mono text-xs"
            onFocus={(event) => event.currentTarget.select()}
          />
          <Button variant="outline" onClick={copy} data-testid="copy-login-link">
            <CopyIcon />
            <Trans>Copy</Trans>
          </Button>
        </div>
        <DialogFooter>
          <Button onClick={onClose}>
            <Trans>Done</Trans>
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
