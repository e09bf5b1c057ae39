// Every plan, offered or not, with its price, stock, limits and how many users hold it; each can be edited.
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge } from '@rooms/ui/badge';
import { Button } from '@rooms/ui/button';
import { Card } from '@rooms/ui/card';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { PencilIcon } from 'lucide-react';
import { useState } from 'react';
import { QueryView } from '../../../components/query-view';
import { useFailureToast } from '../../../hooks/use-failure-toast';
import { formatMoney, formatRoomTime } from '../../../lib/billing';
import { trpc } from '../../../lib/trpc';
import type { TAdminPlan } from './-components/admin-api';
import { AdminPageHeader } from './-components/admin-ui';
import { column, DataTable, type TDataColumn } from './-components/data-table';
import { PlanEditDialog } from './-components/plan-edit-dialog';

export const Route = createFileRoute('/_app/admin/plans')({
  staticData: { title: msg`Plans` },
  component: PlansPage,
});

function PlansPage() {
  const { i18n, t } = useLingui();
  const plans = useQuery(trpc.admin.plans.list.queryOptions());
  useFailureToast(plans.error, t`Failed to retrieve the plan list`);
  const [editing, setEditing] = useState<TAdminPlan | null>(null);
  const columns: TDataColumn<TAdminPlan>[] = [
    column({
      id: 'name',
      header: <Trans>Name</Trans>,
      cell: (plan) => (
        <div className="flex flex-col gap-1">
          <span className="flex flex-wrap items-center gap-2 font-medium">
            {plan.name}
            {plan.isDefault ? (
              <Badge variant="outline">
                <Trans>Default</Trans>
              </Badge>
            ) : null}
          </span>
          <span className="font-mono text-muted-foreground text-xs">{plan.code}</span>
        </div>
      ),
    }),
    column({
      id: 'price',
      header: <Trans>Price</Trans>,
      className: 'text-right',
      cellTestId: 'admin-plan-price',
      cell: (plan) => formatMoney(i18n, plan.price),
    }),
    column({
      id: 'inventory',
      header: <Trans>Inventory</Trans>,
      className: 'text-right',
      cell: (plan) => (plan.inventory === null ? '∞' : plan.inventory),
    }),
    column({
      id: 'limits',
      header: <Trans>Limits</Trans>,
      cellClassName: 'text-muted-foreground text-xs',
      cell: (plan) => <PlanLimits plan={plan} />,
    }),
    column({
      id: 'enabled',
      header: <Trans>Enabled</Trans>,
      cell: (plan) =>
        plan.enabled ? (
          <Badge>
            <Trans>Enabled</Trans>
          </Badge>
        ) : (
          <Badge variant="secondary">
            <Trans>Disabled</Trans>
          </Badge>
        ),
    }),
    column({
      id: 'order',
      header: <Trans>Order</Trans>,
      className: 'text-right',
      cell: (plan) => plan.sortOrder,
    }),
    column({
      id: 'subscribers',
      header: <Trans>Subscribers</Trans>,
      className: 'text-right',
      cell: (plan) => plan.subscribers,
    }),
    column({
      id: 'edit',
      cellClassName: 'text-right',
      cell: (plan) => (
        <Button size="sm" variant="outline" onClick={() => setEditing(plan)}>
          <PencilIcon />
          <Trans>Edit</Trans>
        </Button>
      ),
    }),
  ];

  return (
    <div className="grid gap-6">
      <AdminPageHeader title={<Trans>Plans</Trans>} />
      <QueryView query={plans} failure={<Trans>Failed to retrieve the plan list</Trans>}>
        {(list) => (
          <Card className="gap-0 overflow-hidden py-0">
            <DataTable
              testId="admin-plans"
              label={t`Plans`}
              columns={columns}
              rows={list}
              rowId={(plan) => plan.id}
              rowProps={(plan) => ({ 'data-testid': 'admin-plan-row', 'data-plan-code': plan.code })}
              empty={<Trans>No plans.</Trans>}
            />
          </Card>
        )}
      </QueryView>
      {editing ? <PlanEditDialog key={editing.id} plan={editing} onClose={() => setEditing(null)} /> : null}
    </div>
  );
}

function PlanLimits({ plan }: { plan: TAdminPlan }) {
  const { i18n } = useLingui();
  const time = formatRoomTime(i18n, plan.timeQuotaMinutes * 60);
  const freeTime = formatRoomTime(i18n, plan.freeTimeQuotaMinutes * 60);
  return (
    <>
      <div>
        <Trans>
          {plan.maxRooms} rooms · {plan.maxConnections} connections
        </Trans>
      </div>
      <div>
        <Trans>
          {plan.maxWidth}×{plan.maxHeight} at {plan.maxFrameRate} fps · {plan.maxBitrateKbps} kbps
        </Trans>
      </div>
      <div>
        <Trans>
          Room time {time} · {freeTime} free per month
        </Trans>
      </div>
    </>
  );
}
