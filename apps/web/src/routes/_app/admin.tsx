// The administration area (/admin/...). Its screens are split into their own chunks and load only when visited;
// a signed-in user who is not an administrator is shown the access-denied page (/auth/access). The API
// still answers them as for a path that does not exist: the page says no, the data says nothing.
import { createFileRoute, redirect } from '@tanstack/react-router';
import { requireLogin } from '../../lib/guard';
import { trpc } from '../../lib/trpc';

export const Route = createFileRoute('/_app/admin')({
  beforeLoad: async ({ context: { queryClient }, location }) => {
    const options = trpc.user.userinfo.queryOptions();
    try {
      let info = await queryClient.ensureQueryData(options);
      // The cached answer may be another session's (an administrator coming back from signing in as a user lands
      // here before the cache is refetched), so a "no" is asked again before it counts.
      if (info.role !== 'admin') info = await queryClient.fetchQuery({ ...options, staleTime: 0 });
      if (info.role !== 'admin') throw redirect({ to: '/auth/access', replace: true });
    } catch (error) {
      // A 401 has just cleared the session: to login, as for any page. Anything else is the route's error.
      requireLogin({ location });
      throw error;
    }
  },
});
