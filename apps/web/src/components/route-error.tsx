// What a route shows when it fails to render. Its code not arriving (the server down) reads as a failed call does,
// with a way to try again; anything else cannot be recovered from on the page, so it goes to the error page of
// the error page (/auth/error), which offers to load the page afresh.
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@rooms/ui/button';
import { Card, CardContent } from '@rooms/ui/card';
import {
  ErrorComponent,
  type ErrorComponentProps,
  Navigate,
  useLocation,
  useRouter,
} from '@tanstack/react-router';
import { useEffect } from 'react';
import { ChunkLoadError } from '../lib/lazy-route';

export function RouteError({ error }: ErrorComponentProps) {
  const { t } = useLingui();
  const router = useRouter();
  const location = useLocation();
  const unrecoverable = !(error instanceof ChunkLoadError);
  useEffect(() => {
    // The page is left, so the cause would be lost with it: the console keeps it for whoever looks.
    if (unrecoverable) console.error(error);
  }, [error, unrecoverable]);
  if (unrecoverable) {
    // The error page itself failing: its own words would fail again, so the router's plain display.
    if (location.pathname === '/auth/error') return <ErrorComponent error={error} />;
    return <Navigate to="/auth/error" search={{ from: location.href }} replace />;
  }
  return (
    <Card data-testid="route-load-failure">
      <CardContent className="flex flex-col items-center gap-3 py-10 text-center">
        <p role="alert" className="text-destructive">
          {t`Network request failed:`} {t`The page could not be loaded`}
        </p>
        {/* A new load clears the failure (router.tsx), so the page's code is fetched again. */}
        <Button variant="outline" onClick={() => void router.invalidate()}>
          <Trans>Try again</Trans>
        </Button>
      </CardContent>
    </Card>
  );
}
