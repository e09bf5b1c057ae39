// While an administrator is signed in as a user (through a one-time link, /admintologinuser/{token}), every signed-in page says whose
// account this is and who opened it, with the way back to the administrator's own session. The layout keeps it in
// view along the bottom (app-layout.tsx bottomBar), the sidebar ending above it.
import { Trans } from '@lingui/react/macro';
import { Button } from '@rooms/ui/button';
import { Spinner } from '@rooms/ui/spinner';
import { useQueryClient } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { ShieldAlertIcon, Undo2Icon } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { useUserInfo } from '../hooks/use-current-user';
import { formatDateTime } from '../lib/format';
import { endImpersonation } from '../lib/impersonation';
import { trpcClient } from '../lib/trpc';

/** Stands in for a control an impersonated session may not use (paying, changing the password). */
export function ImpersonationNote({ children }: { children: ReactNode }) {
  return (
    <p
      className="flex items-start gap-2 rounded-md border border-warning/40 bg-warning/10 p-3 text-sm"
      data-testid="impersonation-note"
    >
      <ShieldAlertIcon className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden />
      <span>{children}</span>
    </p>
  );
}

export function ImpersonationBanner() {
  const user = useUserInfo().data;
  const router = useRouter();
  const queryClient = useQueryClient();
  const [leaving, setLeaving] = useState(false);
  if (!user?.impersonation) return null;
  const { adminEmail, expiresAt } = user.impersonation;
  const { username, email } = user;

  async function back() {
    setLeaving(true);
    // Nothing may still be in flight with the user's token: its 401 after logout would clear the restored session.
    await queryClient.cancelQueries();
    try {
      await trpcClient.user.logout.mutate();
    } catch {
      // The session is dropped here regardless; it also runs out on its own within the hour.
    }
    const restored = endImpersonation();
    if (restored) {
      router.history.replace(restored.role === 'admin' ? '/admin/users' : '/dashboard');
      // Everything shown so far was the user's: fetch it again as the account restored.
      await queryClient.resetQueries();
    } else {
      queryClient.clear();
      router.history.replace('/auth/login');
    }
  }

  return (
    <div
      role="status"
      data-testid="impersonation-banner"
      className="flex flex-wrap items-center gap-x-4 gap-y-2 border-warning/60 border-t bg-warning/95 px-4 py-2 text-sm text-black shadow-lg sm:px-6"
    >
      <ShieldAlertIcon className="size-5 shrink-0 max-sm:hidden" aria-hidden />
      <p className="min-w-0 flex-[1_1_18rem] break-words">
        <Trans>
          You are signed in as <strong>{username}</strong> ({email}) by administrator{' '}
          <strong>{adminEmail}</strong>
        </Trans>
        <span className="ml-2 opacity-80">
          <Trans>This session ends at {formatDateTime(expiresAt)}.</Trans>
        </span>
      </p>
      <Button
        size="sm"
        variant="outline"
        className="border-black/30 bg-white/80 text-black hover:bg-white"
        disabled={leaving}
        onClick={back}
        data-testid="impersonation-back"
      >
        {leaving ? <Spinner /> : <Undo2Icon />}
        <Trans>Back to my account</Trans>
      </Button>
    </div>
  );
}
