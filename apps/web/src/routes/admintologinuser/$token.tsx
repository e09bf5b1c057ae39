// An administrator's one-time sign-in link (/admintologinuser/{token}): redeemed once on open, it signs this
// browser in as the user with a short-lived impersonated session and leaves for the dashboard.
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@rooms/ui/button';
import { Spinner } from '@rooms/ui/spinner';
import { useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link, useRouter } from '@tanstack/react-router';
import { LinkIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { StandalonePage } from '../../components/standalone-page';
import { startImpersonation } from '../../lib/impersonation';
import { describeError } from '../../lib/messages';
import { trpcClient } from '../../lib/trpc';

export const Route = createFileRoute('/admintologinuser/$token')({
  staticData: { title: msg`Sign in as user` },
  component: AdminLoginPage,
});

// A link works once: a remount (StrictMode, a re-render of the route) must not redeem it a second time.
const redemptions = new Map<string, ReturnType<typeof trpcClient.user.adminLogin.mutate>>();

function redeem(token: string) {
  let pending = redemptions.get(token);
  if (!pending) {
    pending = trpcClient.user.adminLogin.mutate({ token });
    redemptions.set(token, pending);
  }
  return pending;
}

function AdminLoginPage() {
  const { i18n } = useLingui();
  const { token } = Route.useParams();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    redeem(token).then(
      (session) => {
        if (!current) return;
        startImpersonation(session);
        // Nothing cached for the previous account may show under the user's.
        queryClient.clear();
        // Replace: the link's token must not stay in the history.
        router.history.replace('/dashboard');
      },
      (error: unknown) => {
        if (current) setFailure(describeError(i18n, error).text);
      },
    );
    return () => {
      current = false;
    };
  }, [token, router, queryClient, i18n]);

  return (
    <StandalonePage>
      <div
        className="mx-auto flex max-w-md flex-col items-center gap-4 text-center"
        data-testid="admin-login"
        data-status={failure === null ? 'pending' : 'failed'}
      >
        {failure === null ? (
          <>
            <Spinner />
            <p className="text-muted-foreground">
              <Trans>Signing in…</Trans>
            </p>
          </>
        ) : (
          <>
            <div className="flex size-20 items-center justify-center rounded-full bg-card ring-1 ring-border">
              <LinkIcon className="size-9 text-destructive" />
            </div>
            <h1 className="font-semibold text-2xl">
              <Trans>Sign-in link not accepted</Trans>
            </h1>
            <p className="text-muted-foreground" role="alert" data-testid="admin-login-error">
              {failure}
            </p>
            <Button asChild>
              <Link to="/auth/login" replace>
                <Trans>Go to login</Trans>
              </Link>
            </Button>
          </>
        )}
      </div>
    </StandalonePage>
  );
}
