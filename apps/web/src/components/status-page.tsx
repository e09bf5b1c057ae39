import { Trans } from '@lingui/react/macro';
import { Button } from '@rooms/ui/button';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { StandalonePage } from './standalone-page';

export function StatusPage({
  icon,
  code,
  title,
  description,
  action,
}: {
  icon: ReactNode;
  code: string;
  title: ReactNode;
  description: ReactNode;
  /** Shown before the ways out (dashboard, home), e.g. trying again. */
  action?: ReactNode;
}) {
  return (
    <StandalonePage>
      <div
        className="mx-auto flex max-w-md flex-col items-center gap-4 text-center"
        data-testid="status-page"
      >
        <div className="flex size-20 items-center justify-center rounded-full bg-card ring-1 ring-border">
          {icon}
        </div>
        <p className="font-bold font-mono text-5xl text-muted-foreground">{code}</p>
        <h1 className="font-semibold text-2xl">{title}</h1>
        <p className="text-muted-foreground">{description}</p>
        <div className="flex flex-wrap justify-center gap-2">
          {action}
          <Button asChild>
            <Link to="/dashboard">
              <Trans>Go to dashboard</Trans>
            </Link>
          </Button>
          <Button variant="outline" asChild>
            <Link to="/">
              <Trans>Home</Trans>
            </Link>
          </Button>
        </div>
      </div>
    </StandalonePage>
  );
}
