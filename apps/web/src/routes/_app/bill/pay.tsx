import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { ComingSoon } from '../../../components/coming-soon';

export const Route = createFileRoute('/_app/bill/pay')({
  staticData: { title: msg`Recharge` },
  component: () => (
    <ComingSoon title={<Trans>Recharge</Trans>}>
      <Trans>Recharging your prepaid balance will happen here.</Trans>
    </ComingSoon>
  ),
});
