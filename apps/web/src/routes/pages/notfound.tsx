import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { CompassIcon } from 'lucide-react';
import { StatusPage } from '../../components/status-page';

export const Route = createFileRoute('/pages/notfound')({
  staticData: { title: msg`Not found` },
  component: () => (
    <StatusPage
      icon={<CompassIcon className="size-10 text-primary" />}
      code="404"
      title={<Trans>Page not found</Trans>}
      description={<Trans>The page you are looking for does not exist or has moved.</Trans>}
    />
  ),
});
