// What a route shows when it fails to render. Its code not arriving (the server down) reads as a failed call does,
// with a way to try again; anything else keeps the router's own error display.
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@rooms/ui/button';
import { Card, CardContent } from '@rooms/ui/card';
import { ErrorComponent, type ErrorComponentProps, useRouter } from '@tanstack/react-router';
import { ChunkLoadError } from '../lib/lazy-route';

export function RouteError({ error }: ErrorComponentProps) {
  const { t } = useLingui();
  const router = useRouter();
  if (!(error instanceof ChunkLoadError)) return <ErrorComponent error={error} />;
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
