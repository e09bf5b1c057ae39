import type { AppRouter, TAppErrorCode } from '@rooms/api/client';
import { createTRPCClient, httpLink, splitLink, TRPCClientError } from '@trpc/client';
import { createTRPCOptionsProxy } from '@trpc/tanstack-react-query';
import superjson from 'superjson';
import { apiFetch } from './http';
import { queryClient } from './query-client';

export { queryClient };

const link = { url: '/trpc', transformer: superjson, fetch: apiFetch } as const;

export const trpcClient = createTRPCClient<AppRouter>({
  links: [
    splitLink({
      // A query with a share password travels as POST, so the password never lands in a URL (server and proxy
      // logs, the browser's history); the server accepts queries by POST for this.
      condition: (op) => op.type === 'query' && carriesPassword(op.input),
      true: httpLink({ ...link, methodOverride: 'POST' }),
      false: httpLink(link),
    }),
  ],
});

function carriesPassword(input: unknown): boolean {
  return (
    typeof input === 'object' && input !== null && (input as { password?: unknown }).password !== undefined
  );
}

export const trpc = createTRPCOptionsProxy<AppRouter>({ client: trpcClient, queryClient });

export type TAppClientError = TRPCClientError<AppRouter>;

export function isAppError(error: unknown): error is TAppClientError {
  return error instanceof TRPCClientError;
}

/** The server's stable machine code of a failed call (packages/api/src/errors.ts), if it sent one. */
export function appCodeOf(error: unknown): TAppErrorCode | undefined {
  if (!isAppError(error)) return undefined;
  const data = error.data as { appCode?: TAppErrorCode } | undefined;
  return data?.appCode;
}
