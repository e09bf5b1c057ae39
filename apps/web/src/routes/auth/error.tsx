import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { Button } from '@rooms/ui/button';
import { createFileRoute } from '@tanstack/react-router';
import { CircleXIcon, RotateCwIcon } from 'lucide-react';
import { StatusPage } from '../../components/status-page';
import { safeRedirect } from '../../lib/session';

/** The error page, where a page that failed beyond repair sends the visitor (components/route-error). */
export const Route = createFileRoute('/auth/error')({
  // The page that failed, so it can be loaded afresh; only a path of this site.
  validateSearch: (search: Record<string, unknown>): { from?: string } =>
    typeof search.from === 'string' && safeRedirect(search.from) === search.from ? { from: search.from } : {},
  staticData: { title: msg`Error` },
  component: ErrorPage,
});

function ErrorPage() {
  const { from } = Route.useSearch();
  return (
    <StatusPage
      icon={<CircleXIcon className="size-10 text-destructive" />}
      code="500"
      title={<Trans>Something went wrong</Trans>}
      description={<Trans>The request could not be completed. Please try again in a moment.</Trans>}
      action={
        from ? (
          <Button variant="secondary" asChild>
            {/* A full load: whatever state the failure left in the app is gone with it. */}
            <a href={from} data-testid="error-retry">
              <RotateCwIcon />
              <Trans>Try again</Trans>
            </a>
          </Button>
        ) : null
      }
    />
  );
}
