import { QueryClient } from '@tanstack/react-query';

function httpStatusOf(error: unknown): number {
  return (error as { data?: { httpStatus?: number } } | null)?.data?.httpStatus ?? 500;
}

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // Client errors (4xx) are answers, not glitches: retrying them only repeats the same reply.
      retry: (count, error) => count < 2 && httpStatusOf(error) >= 500,
      refetchOnWindowFocus: false,
      staleTime: 30_000,
    },
  },
});
