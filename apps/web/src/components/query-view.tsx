// A page's main query in its three looks: a spinner while it loads, the failure with a retry button, and the
// page's own rendering of the data once it is there.
import { Trans } from '@lingui/react/macro';
import { Button } from '@rooms/ui/button';
import { Card, CardContent } from '@rooms/ui/card';
import { Spinner } from '@rooms/ui/spinner';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';

export function QueryView<T, TError>(props: {
  query: UseQueryResult<T, TError>;
  /** What failed, in the spec's words (e.g. 'Failed to retrieve the room list'). */
  failure: ReactNode;
  children: (data: T) => ReactNode;
}) {
  const { query } = props;
  if (query.isPending) {
    return (
      <div className="flex justify-center py-16">
        <Spinner />
      </div>
    );
  }
  if (query.isError) {
    return (
      <Card>
        <CardContent className="flex flex-col items-center gap-3 py-10 text-center">
          <p className="text-destructive">{props.failure}</p>
          <Button variant="outline" onClick={() => query.refetch()}>
            <Trans>Try again</Trans>
          </Button>
        </CardContent>
      </Card>
    );
  }
  return props.children(query.data);
}
