import { Trans } from '@lingui/react/macro';
import { Badge } from '@rooms/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@rooms/ui/card';
import { ConstructionIcon } from 'lucide-react';
import type { ReactNode } from 'react';

/** A page whose feature ships in a later release: it says so plainly and offers nothing that pretends to work. */
export function ComingSoon({ title, children }: { title: ReactNode; children: ReactNode }) {
  return (
    <Card data-testid="coming-soon">
      <CardHeader>
        <div className="flex flex-wrap items-center gap-3">
          <CardTitle className="text-2xl">{title}</CardTitle>
          <Badge variant="warning">
            <Trans>Coming soon</Trans>
          </Badge>
        </div>
        <CardDescription>{children}</CardDescription>
      </CardHeader>
      <CardContent>
        <div className="flex items-center gap-3 rounded-lg border border-dashed p-6 text-muted-foreground">
          <ConstructionIcon className="size-8 shrink-0 text-warning" />
          <p>
            <Trans>
              This feature is coming in a later release. Nothing on this page works yet; your account and
              settings are ready for it.
            </Trans>
          </p>
        </div>
      </CardContent>
    </Card>
  );
}
