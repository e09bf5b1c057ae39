import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { ComingSoon } from '../../components/coming-soon';
import { StandalonePage } from '../../components/standalone-page';
import { requireLogin } from '../../lib/guard';

export const Route = createFileRoute('/room/$id')({
  beforeLoad: requireLogin,
  staticData: { title: msg`Room` },
  component: () => (
    <StandalonePage>
      <ComingSoon title={<Trans>Room</Trans>}>
        <Trans>Entering a room, its shared browser and handing over control will work here.</Trans>
      </ComingSoon>
    </StandalonePage>
  ),
});
