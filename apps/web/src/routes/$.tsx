import { createFileRoute, redirect } from '@tanstack/react-router';

// Any unknown path redirects to /pages/notfound. The root's not-found handler sees only paths no route
// begins to match; this catch-all takes the rest, such as /dashboard/x under the signed-in layout, before that
// layout's login guard would send a visitor to log in for a page that does not exist.
export const Route = createFileRoute('/$')({
  beforeLoad: () => {
    throw redirect({ to: '/pages/notfound', replace: true });
  },
});
