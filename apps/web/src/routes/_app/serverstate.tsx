import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { ComingSoon } from '../../components/coming-soon';

export const Route = createFileRoute('/_app/serverstate')({
  staticData: { title: msg`Server state` },
  component: () => (
    <ComingSoon title={<Trans>Server state</Trans>}>
      <Trans>The state of the browser servers in each region will be shown here.</Trans>
    </ComingSoon>
  ),
});
