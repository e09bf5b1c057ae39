import { createFileRoute } from '@tanstack/react-router';
import { ImpersonationBanner } from '../components/impersonation-banner';
import { KnockAlerts } from '../components/knock-alerts';
import { AppLayout } from '../components/layout/app-layout';
import { requireLogin } from '../lib/guard';

export const Route = createFileRoute('/_app')({
  beforeLoad: requireLogin,
  component: () => (
    <>
      <KnockAlerts />
      <AppLayout bottomBar={<ImpersonationBanner />} />
    </>
  ),
});
