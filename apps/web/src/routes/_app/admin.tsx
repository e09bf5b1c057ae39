// The administration area (/admin/...). Its screens are split into their own chunks and load only when visited;
// anyone but an administrator gets the app's not-found page, as for a path that does not exist (the API answers
// them the same way).
import { createFileRoute, notFound, rootRouteId } from '@tanstack/react-router';
import { trpc } from '../../lib/trpc';

export const Route = createFileRoute('/_app/admin')({
  beforeLoad: async ({ context: { queryClient } }) => {
    const options = trpc.user.userinfo.queryOptions();
    let info = await queryClient.ensureQueryData(options).catch(() => null);
    // The cached answer may be another session's (an administrator coming back from signing in as a user lands
    // here before the cache is refetched), so a "no" is asked again before it counts.
    if (info?.role !== 'admin')
      info = await queryClient.fetchQuery({ ...options, staleTime: 0 }).catch(() => null);
    // Thrown to the root, whose not-found handling is the one every unknown path gets.
    if (info?.role !== 'admin') throw notFound({ routeId: rootRouteId });
  },
});
