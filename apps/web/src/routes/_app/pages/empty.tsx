import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';

export const Route = createFileRoute('/_app/pages/empty')({
  staticData: { title: msg`Empty page` },
  component: () => (
    <div className="rounded-xl border bg-card p-6">
      <h1 className="font-semibold text-2xl">
        <Trans>Empty page</Trans>
      </h1>
      <p className="mt-2 text-muted-foreground">
        <Trans>Use this page to start from scratch and place new content.</Trans>
      </p>
    </div>
  ),
});
