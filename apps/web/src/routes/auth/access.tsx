import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { ShieldXIcon } from 'lucide-react';
import { StatusPage } from '../../components/status-page';

export const Route = createFileRoute('/auth/access')({
  staticData: { title: msg`Access denied` },
  component: () => (
    <StatusPage
      icon={<ShieldXIcon className="size-10 text-warning" />}
      code="403"
      title={<Trans>Access denied</Trans>}
      description={<Trans>You do not have the permission to view this page.</Trans>}
    />
  ),
});
