// The moderation queue: reports about rooms, open ones first by default, a page at a time.
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Card } from '@rooms/ui/card';
import { NativeSelect } from '@rooms/ui/native-select';
import { useInfiniteQuery } from '@tanstack/react-query';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { QueryView } from '../../../components/query-view';
import { useFailureToast } from '../../../hooks/use-failure-toast';
import { trpc } from '../../../lib/trpc';
import { nextCursor } from './-components/admin-api';
import { AdminPageHeader } from './-components/admin-ui';
import { ReportsTable } from './-components/reports-table';

type TStatus = 'open' | 'resolved' | 'all';

export const Route = createFileRoute('/_app/admin/reports')({
  staticData: { title: msg`Reports` },
  validateSearch: (search: Record<string, unknown>): { status?: TStatus } =>
    search.status === 'resolved' || search.status === 'all' ? { status: search.status } : {},
  component: ReportsPage,
});

function ReportsPage() {
  const { t } = useLingui();
  const navigate = useNavigate({ from: Route.fullPath });
  const status = Route.useSearch().status ?? 'open';
  const reports = useInfiniteQuery(
    trpc.admin.reports.list.infiniteQueryOptions({ status, limit: 25 }, { getNextPageParam: nextCursor }),
  );
  useFailureToast(reports.error, t`Failed to retrieve the reports`);

  return (
    <div className="grid gap-6">
      <AdminPageHeader title={<Trans>Reports</Trans>}>
        <NativeSelect
          className="w-44"
          aria-label={t`Status`}
          value={status}
          data-testid="report-status"
          onChange={(event) => {
            const next = event.target.value as TStatus;
            void navigate({ search: next === 'open' ? {} : { status: next }, replace: true });
          }}
        >
          <option value="open">{t`Open`}</option>
          <option value="resolved">{t`Resolved`}</option>
          <option value="all">{t`All`}</option>
        </NativeSelect>
      </AdminPageHeader>
      <QueryView query={reports} failure={<Trans>Failed to retrieve the reports</Trans>}>
        {(data) => (
          <Card className="gap-0 overflow-hidden py-0">
            <ReportsTable
              reports={data.pages.flatMap((page) => page.items)}
              more={{
                hasMore: reports.hasNextPage,
                loading: reports.isFetchingNextPage,
                onLoad: () => reports.fetchNextPage(),
              }}
            />
          </Card>
        )}
      </QueryView>
    </div>
  );
}
