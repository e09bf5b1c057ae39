// The audit log: every administrator's change, newest first, with what it was before and after and why.
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@rooms/ui/button';
import { Card } from '@rooms/ui/card';
import { Input } from '@rooms/ui/input';
import { useInfiniteQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useState } from 'react';
import { QueryView } from '../../../components/query-view';
import { useDebouncedValue } from '../../../hooks/use-debounced-value';
import { useFailureToast } from '../../../hooks/use-failure-toast';
import { formatDateTime } from '../../../lib/format';
import { trpc } from '../../../lib/trpc';
import {
  AUDIT_CODE_MAX_LENGTH,
  nextCursor,
  SEARCH_MAX_LENGTH,
  type TAuditEntry,
} from './-components/admin-api';
import { AdminPageHeader } from './-components/admin-ui';
import { column, DataTable, type TDataColumn } from './-components/data-table';

export const Route = createFileRoute('/_app/admin/audit')({
  staticData: { title: msg`Audit log` },
  component: AuditPage,
});

interface TFilters {
  action: string;
  actor: string;
  targetId: string;
  since: string;
  until: string;
}

/** What the server records (packages/api domains/admin); the field matches any part of an action. */
const knownActions = [
  'user.disable',
  'user.enable',
  'user.setLevel',
  'user.grantPlan',
  'user.adjustBalance',
  'user.sendPasswordReset',
  'user.endSessions',
  'user.setRole',
  'loginLink.create',
  'loginLink.use',
  'room.stop',
  'report.dismiss',
  'report.hide',
  'report.stop',
  'report.disableOwner',
  'plan.update',
  'payment.refresh',
  'payment.refund',
];

const noFilters: TFilters = { action: '', actor: '', targetId: '', since: '', until: '' };

/** A yyyy-mm-dd date field as local midnight, or the end of that day for the upper bound. */
function dayBound(value: string, end: boolean): Date | undefined {
  if (!value) return undefined;
  const [year, month, day] = value.split('-').map(Number);
  if (!year || !month || !day) return undefined;
  return end ? new Date(year, month - 1, day + 1, 0, 0, 0, -1) : new Date(year, month - 1, day);
}

function compact(value: Record<string, unknown> | null): string {
  return value === null ? '—' : JSON.stringify(value);
}

function AuditPage() {
  const { t } = useLingui();
  const [filters, setFilters] = useState<TFilters>(noFilters);
  const settled = useDebouncedValue(filters, 300);
  const audit = useInfiniteQuery(
    trpc.admin.audit.list.infiniteQueryOptions(
      {
        action: settled.action.trim() || undefined,
        actor: settled.actor.trim() || undefined,
        targetId: settled.targetId.trim() || undefined,
        since: dayBound(settled.since, false),
        until: dayBound(settled.until, true),
        limit: 50,
      },
      { getNextPageParam: nextCursor },
    ),
  );
  useFailureToast(audit.error, t`Failed to retrieve the audit log`);
  const set = (field: keyof TFilters) => (event: { target: { value: string } }) =>
    setFilters((current) => ({ ...current, [field]: event.target.value }));

  return (
    <div className="grid gap-6">
      <AdminPageHeader title={<Trans>Audit log</Trans>} />
      <Card className="py-4">
        <div className="grid gap-3 px-4 sm:grid-cols-2 lg:grid-cols-6">
          <FilterField id="audit-action" label={<Trans>Action</Trans>}>
            <Input
              id="audit-action"
              list="audit-known-actions"
              value={filters.action}
              maxLength={AUDIT_CODE_MAX_LENGTH}
              placeholder="user.disable"
              onChange={set('action')}
            />
            <datalist id="audit-known-actions">
              {knownActions.map((action) => (
                <option key={action} value={action} />
              ))}
            </datalist>
          </FilterField>
          <FilterField id="audit-actor" label={<Trans>Administrator e-mail</Trans>}>
            <Input
              id="audit-actor"
              value={filters.actor}
              maxLength={SEARCH_MAX_LENGTH}
              onChange={set('actor')}
            />
          </FilterField>
          <FilterField id="audit-target" label={<Trans>Target id</Trans>}>
            <Input
              id="audit-target"
              value={filters.targetId}
              maxLength={AUDIT_CODE_MAX_LENGTH}
              onChange={set('targetId')}
            />
          </FilterField>
          <FilterField id="audit-since" label={<Trans>From</Trans>}>
            <Input id="audit-since" type="date" value={filters.since} onChange={set('since')} />
          </FilterField>
          <FilterField id="audit-until" label={<Trans>Until</Trans>}>
            <Input id="audit-until" type="date" value={filters.until} onChange={set('until')} />
          </FilterField>
          <div className="flex items-end">
            <Button variant="outline" className="w-full" onClick={() => setFilters(noFilters)}>
              <Trans>Clear filters</Trans>
            </Button>
          </div>
        </div>
      </Card>
      <QueryView query={audit} failure={<Trans>Failed to retrieve the audit log</Trans>}>
        {(data) => {
          const rows = data.pages.flatMap((page) => page.items);
          return (
            <Card className="gap-0 overflow-hidden py-0">
              <DataTable
                testId="admin-audit"
                label={t`Audit log`}
                columns={columns}
                rows={rows}
                rowId={(entry) => entry.id}
                rowProps={(entry) => ({ 'data-testid': 'audit-row', 'data-action': entry.action })}
                empty={<Trans>No entries.</Trans>}
                more={{
                  hasMore: audit.hasNextPage,
                  loading: audit.isFetchingNextPage,
                  onLoad: () => audit.fetchNextPage(),
                }}
              />
            </Card>
          );
        }}
      </QueryView>
    </div>
  );
}

function FilterField({
  id,
  label,
  children,
}: {
  id: string;
  label: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <div className="grid gap-1.5">
      <label htmlFor={id} className="font-medium text-muted-foreground text-xs">
        {label}
      </label>
      {children}
    </div>
  );
}

const columns: TDataColumn<TAuditEntry>[] = [
  column({
    id: 'time',
    header: <Trans>Time</Trans>,
    cellClassName: 'whitespace-nowrap',
    cell: (entry) => formatDateTime(entry.createdAt),
  }),
  column({ id: 'actor', header: <Trans>Administrator</Trans>, cell: (entry) => entry.actor }),
  column({
    id: 'action',
    header: <Trans>Action</Trans>,
    cellClassName: 'font-mono text-xs',
    cell: (entry) => entry.action,
  }),
  column({
    id: 'target',
    header: <Trans>Target</Trans>,
    cell: (entry) => (
      <div className="flex flex-col">
        <span>{entry.targetLabel}</span>
        <span className="font-mono text-muted-foreground text-xs" title={entry.targetId}>
          {entry.targetType}
        </span>
      </div>
    ),
  }),
  column({
    id: 'change',
    header: <Trans>Before → after</Trans>,
    cellClassName: 'min-w-64 max-w-md',
    cell: (entry) => (
      <code className="block break-all font-mono text-xs">
        <span className="text-muted-foreground">{compact(entry.before)}</span>
        {' → '}
        <span>{compact(entry.after)}</span>
      </code>
    ),
  }),
  column({
    id: 'reason',
    header: <Trans>Reason</Trans>,
    cellClassName: 'max-w-xs break-words',
    cell: (entry) => entry.reason ?? '',
  }),
  column({
    id: 'ip',
    header: <Trans>IP</Trans>,
    className: 'max-lg:hidden',
    cellClassName: 'font-mono text-xs',
    cell: (entry) => entry.ip ?? '—',
  }),
];
