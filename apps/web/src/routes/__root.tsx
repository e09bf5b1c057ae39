import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Toaster } from '@rooms/ui/toaster';
import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, Navigate, Outlet, useMatches } from '@tanstack/react-router';
import { useEffect } from 'react';
import { InsecureContextNotice } from '../components/insecure-context-notice';
import { SITE_TITLE } from '../lib/site';

function DocumentTitle() {
  const { i18n } = useLingui();
  const matches = useMatches();
  const page = [...matches].reverse().find((match) => match.staticData?.title)?.staticData.title;
  useEffect(() => {
    const site = i18n._(SITE_TITLE);
    document.title = page ? `${i18n._(page)} | ${site}` : site;
  }, [i18n, page]);
  return null;
}

function Root() {
  const { i18n } = useLingui();
  return (
    <>
      <DocumentTitle />
      <Outlet />
      <InsecureContextNotice />
      <Toaster closeLabel={i18n._(msg`Close`)} />
    </>
  );
}

export const Route = createRootRouteWithContext<{ queryClient: QueryClient }>()({
  component: Root,
  // Any unknown path redirects to /pages/notfound.
  notFoundComponent: () => <Navigate to="/pages/notfound" replace />,
});
