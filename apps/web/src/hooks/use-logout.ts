import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useCallback } from 'react';
import { clearSession } from '../lib/session';
import { trpcClient } from '../lib/trpc';

/** Logout ends the session on the server, clears the cookies and goes to /auth/login. */
export function useLogout() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(async () => {
    try {
      await trpcClient.user.logout.mutate();
    } catch {
      // The cookies go regardless: a session the server no longer knows is over anyway.
    }
    clearSession(undefined, { everything: true });
    queryClient.clear();
    await navigate({ to: '/auth/login', replace: true });
  }, [navigate, queryClient]);
}
