// The signed-in user as the top bar shows it: the cookies at once, then userinfo once it returns (the
// level counts as 1 until then).
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { DEFAULT_LEVEL, saveUserInfo, storedUser } from '../lib/session';
import { trpc } from '../lib/trpc';

export function useUserInfo() {
  return useQuery(trpc.user.userinfo.queryOptions());
}

/** Set when an administrator opened this session as the user (a one-time link, /admintologinuser/{token}). */
export function useImpersonation() {
  return useUserInfo().data?.impersonation ?? null;
}

export function useCurrentUser() {
  const info = useUserInfo();
  useEffect(() => {
    if (info.data) saveUserInfo(info.data);
  }, [info.data]);
  const stored = storedUser();
  return {
    username: info.data?.username ?? stored.username,
    avatar: info.data?.avatar ?? stored.avatar,
    email: info.data?.email ?? stored.email,
    level: info.data?.level ?? DEFAULT_LEVEL,
    role: info.data?.role ?? stored.role,
    loaded: info.isSuccess,
  };
}
