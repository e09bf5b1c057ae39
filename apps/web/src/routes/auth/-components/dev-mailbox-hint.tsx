import { Trans } from '@lingui/react/macro';

/** In development the server keeps e-mails in a mailbox page instead of sending them. */
export function DevMailboxHint() {
  if (!import.meta.env.DEV) return null;
  return (
    <a
      href="/dev/mailbox"
      target="_blank"
      rel="noreferrer"
      className="text-muted-foreground text-xs hover:underline"
    >
      <Trans>Development: open the mailbox</Trans>
    </a>
  );
}
