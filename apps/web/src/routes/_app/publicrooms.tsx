import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { ComingSoon } from '../../components/coming-soon';

export const Route = createFileRoute('/_app/publicrooms')({
  staticData: { title: msg`Public rooms` },
  component: () => (
    <ComingSoon title={<Trans>Public rooms</Trans>}>
      <Trans>The square will list rooms their owners made public, open for anyone to join.</Trans>
    </ComingSoon>
  ),
});
