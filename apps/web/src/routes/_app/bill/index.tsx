import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { ComingSoon } from '../../../components/coming-soon';

export const Route = createFileRoute('/_app/bill/')({
  staticData: { title: msg`Bill management` },
  component: () => (
    <ComingSoon title={<Trans>Bill management</Trans>}>
      <Trans>Your payments, their details and balance recharges will be listed here.</Trans>
    </ComingSoon>
  ),
});
