// User management: every account, found by part of its e-mail or name, newest sign-up or newest login first, a
// page at a time (keyset). A row opens the user's page.
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Card } from '@rooms/ui/card';
import { Input } from '@rooms/ui/input';
import { NativeSelect } from '@rooms/ui/native-select';
import { useInfiniteQuery } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { SearchIcon } from 'lucide-react';
import { QueryView } from '../../../../components/query-view';
import { useFailureToast } from '../../../../hooks/use-failure-toast';
import { useSearchInAddress } from '../../../../hooks/use-search-in-address';
import { formatDateTime } from '../../../../lib/format';
import { trpc } from '../../../../lib/trpc';
import { nextCursor, SEARCH_MAX_LENGTH, type TAdminUserRow } from '../-components/admin-api';
import { AdminPageHeader, DisabledBadge, RoleBadge } from '../-components/admin-ui';
import { column, DataTable, type TDataColumn } from '../-components/data-table';

const sorts = ['createdAt', 'lastLoginAt'] as const;
type TSort = (typeof sorts)[number];

export const Route = createFileRoute('/_app/admin/users/')({
  staticData: { title: msg`User management` },
  validateSearch: (search: Record<string, unknown>): { q?: string; sort?: TSort } => ({
    ...(typeof search.q === 'string' && search.q.trim() ? { q: search.q.slice(0, SEARCH_MAX_LENGTH) } : {}),
    ...(search.sort === 'lastLoginAt' ? { sort: 'lastLoginAt' as const } : {}),
  }),
  component: UsersPage,
});

const columns: TDataColumn<TAdminUserRow>[] = [
  column({
    id: 'name',
    header: <Trans>Name</Trans>,
    cellClassName: 'font-medium',
    cell: (user) => (
      <Link to="/admin/users/$userId" params={{ userId: user.id }} className="hover:underline">
        {user.username}
      </Link>
    ),
  }),
  column({
    id: 'email',
    header: <Trans>E-mail</Trans>,
    cell: (user) => (
      <span className="flex flex-wrap items-center gap-2">
        {user.email}
        <DisabledBadge disabled={user.disabled} />
      </span>
    ),
  }),
  column({ id: 'level', header: <Trans>Level</Trans>, cell: (user) => user.level }),
  column({ id: 'role', header: <Trans>Role</Trans>, cell: (user) => <RoleBadge role={user.role} /> }),
  column({
    id: 'createdAt',
    header: <Trans>Signed up</Trans>,
    className: 'max-md:hidden',
    cell: (user) => formatDateTime(user.createdAt),
  }),
  column({
    id: 'lastLoginAt',
    header: <Trans>Last login</Trans>,
    className: 'max-md:hidden',
    cell: (user) => (user.lastLoginAt ? formatDateTime(user.lastLoginAt) : '—'),
  }),
];

function UsersPage() {
  const { t } = useLingui();
  const search = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const { text, setText, query } = useSearchInAddress(search.q, (q) =>
    navigate({ search: (current) => ({ ...current, q }), replace: true }),
  );
  const sort = search.sort ?? 'createdAt';

  const users = useInfiniteQuery(
    trpc.admin.users.list.infiniteQueryOptions(
      { query: query || undefined, sort, limit: 25 },
      { getNextPageParam: nextCursor },
    ),
  );
  useFailureToast(users.error, t`Failed to retrieve the users`);

  return (
    <div className="grid gap-6">
      <AdminPageHeader title={<Trans>User management</Trans>}>
        <div className="relative w-72 max-w-full">
          <SearchIcon className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 opacity-50" />
          <Input
            type="search"
            className="pl-8"
            value={text}
            maxLength={SEARCH_MAX_LENGTH}
            onChange={(event) => setText(event.target.value)}
            placeholder={t`Search by e-mail or name`}
            aria-label={t`Search by e-mail or name`}
            data-testid="user-search"
          />
        </div>
        <NativeSelect
          className="w-52"
          value={sort}
          aria-label={t`Sort by`}
          onChange={(event) =>
            navigate({
              search: (current) => ({
                ...current,
                sort: event.target.value === 'lastLoginAt' ? 'lastLoginAt' : undefined,
              }),
              replace: true,
            })
          }
          data-testid="user-sort"
        >
          <option value="createdAt">{t`Newest sign-up first`}</option>
          <option value="lastLoginAt">{t`Newest login first`}</option>
        </NativeSelect>
      </AdminPageHeader>
      <QueryView query={users} failure={<Trans>Failed to retrieve the users</Trans>}>
        {(data) => {
          const rows = data.pages.flatMap((page) => page.items);
          return (
            <Card className="gap-0 overflow-hidden py-0">
              <DataTable
                testId="admin-users"
                label={t`User management`}
                columns={columns}
                rows={rows}
                rowId={(user) => user.id}
                rowProps={(user) => ({
                  'data-testid': 'admin-user-row',
                  'data-user-id': user.id,
                  className: 'cursor-pointer',
                  onClick: (event) => {
                    if ((event.target as HTMLElement).closest('a')) return;
                    void navigate({ to: '/admin/users/$userId', params: { userId: user.id } });
                  },
                })}
                empty={query ? <Trans>No user matches “{query}”.</Trans> : <Trans>No users yet.</Trans>}
                more={{
                  hasMore: users.hasNextPage,
                  loading: users.isFetchingNextPage,
                  onLoad: () => users.fetchNextPage(),
                }}
              />
            </Card>
          );
        }}
      </QueryView>
    </div>
  );
}
