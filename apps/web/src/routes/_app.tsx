import { createFileRoute } from '@tanstack/react-router';
import { ImpersonationBanner } from '../components/impersonation-banner';
import { AppLayout } from '../components/layout/app-layout';
import { requireLogin } from '../lib/guard';

export const Route = createFileRoute('/_app')({
  beforeLoad: requireLogin,
  component: () => <AppLayout bottomBar={<ImpersonationBanner />} />,
});
