import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { ComingSoon } from '../../../components/coming-soon';
import { StandalonePage } from '../../../components/standalone-page';

export const Route = createFileRoute('/share/room/$id')({
  staticData: { title: msg`Shared room` },
  component: () => (
    <StandalonePage>
      <ComingSoon title={<Trans>Shared room</Trans>}>
        <Trans>Joining a room shared by link (with its name and password) will work here.</Trans>
      </ComingSoon>
    </StandalonePage>
  ),
});
