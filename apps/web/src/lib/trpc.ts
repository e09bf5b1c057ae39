import type { AppRouter } from '@rooms/api/client';
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { createTRPCOptionsProxy } from '@trpc/tanstack-react-query';
import superjson from 'superjson';
import { apiFetch } from './http';
import { queryClient } from './query-client';

export { queryClient };

export const trpcClient = createTRPCClient<AppRouter>({
  links: [httpLink({ url: '/trpc', transformer: superjson, fetch: apiFetch })],
});

export const trpc = createTRPCOptionsProxy<AppRouter>({ client: trpcClient, queryClient });

export type TAppClientError = TRPCClientError<AppRouter>;

export function isAppError(error: unknown): error is TAppClientError {
  return error instanceof TRPCClientError;
}

/** The server's stable machine code of a failed call (packages/api/src/errors.ts), if it sent one. */
export function appCodeOf(error: unknown): string | undefined {
  if (!isAppError(error)) return undefined;
  const data = error.data as { appCode?: string } | undefined;
  return data?.appCode;
}
