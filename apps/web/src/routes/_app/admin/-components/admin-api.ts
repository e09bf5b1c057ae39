// The admin area's types as the API returns them, and one way to run an admin change: toast the outcome, then
// refetch every admin query so each table shows the change.
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { type UseMutationResult, useMutation, useQueryClient } from '@tanstack/react-query';
import type { inferOutput } from '@trpc/tanstack-react-query';
import { describeError } from '../../../../lib/messages';
import { toastError, toastSuccess } from '../../../../lib/notify';
import { trpc } from '../../../../lib/trpc';

export type TAdminUserRow = inferOutput<typeof trpc.admin.users.list>['items'][number];
export type TAdminUserDetail = inferOutput<typeof trpc.admin.users.get>;
export type TAdminLiveRoom = inferOutput<typeof trpc.admin.rooms.list>[number];
export type TAdminReport = inferOutput<typeof trpc.admin.reports.list>['items'][number];
export type TAdminPlan = inferOutput<typeof trpc.admin.plans.list>[number];
export type TAdminPayment = inferOutput<typeof trpc.admin.payments.list>['items'][number];
export type TAuditEntry = inferOutput<typeof trpc.admin.audit.list>['items'][number];

export type TReportAction = NonNullable<TAdminReport['resolution']>;
export type TRoomState = TAdminLiveRoom['state'];

/**
 * The longest search text the admin lists take: packages/api admin.types.ts allows 254 characters in
 * ZAdminUserListRequest.query, ZAdminPaymentListRequest.query and ZAuditListRequest.actor (an e-mail's length).
 */
export const SEARCH_MAX_LENGTH = 254;
/** ZAuditListRequest.action and ZAuditListRequest.targetId (packages/api admin.types.ts): 64 characters. */
export const AUDIT_CODE_MAX_LENGTH = 64;

/** Keyset pages: the next request carries the last page's cursor until it is null. */
export const nextCursor = (page: { nextCursor: string | null }) => page.nextCursor ?? undefined;

export function useAdminMutation<TVariables, TResult>(
  mutationFn: (variables: TVariables) => Promise<TResult>,
  options: {
    /** The success toast's text; none when omitted. */
    success?: (result: TResult, variables: TVariables) => string;
    /** Form dialogs show the failure themselves instead of toasting it. */
    toastFailure?: boolean;
    onSuccess?: (result: TResult, variables: TVariables) => void;
  } = {},
): UseMutationResult<TResult, unknown, TVariables> {
  const { i18n } = useLingui();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: async (result, variables) => {
      if (options.success) toastSuccess(i18n, options.success(result, variables));
      options.onSuccess?.(result, variables);
      await queryClient.invalidateQueries({ queryKey: trpc.admin.pathKey() });
    },
    onError: (error) => {
      if (options.toastFailure !== false) toastError(i18n, error);
    },
  });
}

/** A failed call's text for a dialog to show, translated when the server's catalogue text is known. */
export function useFailureText(error: unknown): string | null {
  const { i18n } = useLingui();
  if (!error) return null;
  return describeError(i18n, error).text || i18n._(msg`Unknown error`);
}
