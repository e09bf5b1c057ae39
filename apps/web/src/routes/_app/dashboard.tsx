import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { ComingSoon } from '../../components/coming-soon';

export const Route = createFileRoute('/_app/dashboard')({
  staticData: { title: msg`Dashboard` },
  component: () => (
    <ComingSoon title={<Trans>Dashboard</Trans>}>
      <Trans>
        Your rooms will be listed here: create a room, start or stop it, and share it with a link and a
        password.
      </Trans>
    </ComingSoon>
  ),
});
