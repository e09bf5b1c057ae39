import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { CircleXIcon } from 'lucide-react';
import { StatusPage } from '../../components/status-page';

export const Route = createFileRoute('/auth/error')({
  staticData: { title: msg`Error` },
  component: () => (
    <StatusPage
      icon={<CircleXIcon className="size-10 text-destructive" />}
      code="500"
      title={<Trans>Something went wrong</Trans>}
      description={<Trans>The request could not be completed. Please try again in a moment.</Trans>}
    />
  ),
});
