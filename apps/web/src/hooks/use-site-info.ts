// The install's public details (server.getSiteInfo), the same for every page and fetched once per visit.
import { useQuery } from '@tanstack/react-query';
import { trpc } from '../lib/trpc';

/** Where people write for help, as the operator configured it; null while unknown or when none is configured. */
export function useSupportEmail(): string | null {
  const info = useQuery({ ...trpc.server.getSiteInfo.queryOptions(), staleTime: Number.POSITIVE_INFINITY });
  return info.data?.supportEmail ?? null;
}
