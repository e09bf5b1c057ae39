import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { documentCookies } from './lib/cookies';
import { setUnauthorizedHandler } from './lib/http';
import { activateLocale, preferredLocale } from './lib/i18n';
import { queryClient } from './lib/query-client';
import { enableDarkMode } from './lib/theme';
import { router } from './router';
import './styles.css';

enableDarkMode();

// A 401 from any call clears the session (done by the fetch layer) and sends the user to login.
setUnauthorizedHandler(() => {
  const here = router.state.location.href;
  queryClient.clear();
  if (router.state.location.pathname.startsWith('/auth/')) return;
  void router.navigate({ to: '/auth/login', search: { redirect: here }, replace: true });
});

await activateLocale(preferredLocale(documentCookies, navigator.language));

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </I18nProvider>
  </StrictMode>,
);
