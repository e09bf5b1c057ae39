import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { ComingSoon } from '../../components/coming-soon';
import { StandalonePage } from '../../components/standalone-page';

export const Route = createFileRoute('/admintologinuser/$token')({
  staticData: { title: msg`Sign in as user` },
  component: () => (
    <StandalonePage>
      <ComingSoon title={<Trans>Sign in as user</Trans>}>
        <Trans>Administrators will be able to sign in as a user through a one-time link here.</Trans>
      </ComingSoon>
    </StandalonePage>
  ),
});
