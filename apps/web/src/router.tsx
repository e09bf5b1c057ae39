import type { MessageDescriptor } from '@lingui/core';
import { createRouter } from '@tanstack/react-router';
import { RouteError } from './components/route-error';
import { retryFailedChunks } from './lib/lazy-route';
import { queryClient } from './lib/query-client';
import { routeTree } from './routeTree.gen';

export const router = createRouter({
  routeTree,
  context: { queryClient },
  defaultPreload: 'intent',
  defaultErrorComponent: RouteError,
  scrollRestoration: true,
});

// A route whose code could not be fetched (lib/lazy-route.ts) tries again on the next navigation.
router.subscribe('onBeforeLoad', retryFailedChunks);

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
  interface StaticDataRouteOption {
    /** The page's name in the document title. */
    title?: MessageDescriptor;
  }
}
