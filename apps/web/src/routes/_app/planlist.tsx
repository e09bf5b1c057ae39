import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { ComingSoon } from '../../components/coming-soon';

export const Route = createFileRoute('/_app/planlist')({
  staticData: { title: msg`Subscription` },
  component: () => (
    <ComingSoon title={<Trans>Subscription</Trans>}>
      <Trans>
        Your current plan, the plan list, buying, renewing and the auto-renew switch will live here.
      </Trans>
    </ComingSoon>
  ),
});
