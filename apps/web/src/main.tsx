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

// A 401 from any call clears the session (done by the fetch layer) and what was loaded for it, and sends the user
// to login. On the login pages there is nothing of a session left to clear: a 401 there is a late one of the page
// just left (after a logout, its queries refetched without the session), and clearing would cancel what the login
// page is loading, for good (its captcha settings: "I'm not a robot" never enabled).
setUnauthorizedHandler(() => {
  const here = router.state.location.href;
  if (router.state.location.pathname.startsWith('/auth/')) return;
  queryClient.clear();
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
