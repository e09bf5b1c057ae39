// Every plan, offered or not, with its price, stock, limits and how many users hold it; each can be edited.
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge } from '@rooms/ui/badge';
import { Button } from '@rooms/ui/button';
import { Card } from '@rooms/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@rooms/ui/table';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { PencilIcon } from 'lucide-react';
import { useState } from 'react';
import { QueryView } from '../../../components/query-view';
import { useFailureToast } from '../../../hooks/use-failure-toast';
import { formatMoney, formatRoomTime } from '../../../lib/billing';
import { trpc } from '../../../lib/trpc';
import type { TAdminPlan } from './-components/admin-api';
import { AdminPageHeader, EmptyRow } from './-components/admin-ui';
import { PlanEditDialog } from './-components/plan-edit-dialog';

export const Route = createFileRoute('/_app/admin/plans')({
  staticData: { title: msg`Plans` },
  component: PlansPage,
});

function PlansPage() {
  const { t } = useLingui();
  const plans = useQuery(trpc.admin.plans.list.queryOptions());
  useFailureToast(plans.error, t`Failed to retrieve the plan list`);
  const [editing, setEditing] = useState<TAdminPlan | null>(null);

  return (
    <div className="grid gap-6">
      <AdminPageHeader title={<Trans>Plans</Trans>} />
      <QueryView query={plans} failure={<Trans>Failed to retrieve the plan list</Trans>}>
        {(list) => (
          <Card className="gap-0 overflow-hidden py-0">
            <Table data-testid="admin-plans" aria-label={t`Plans`}>
              <TableHeader>
                <TableRow>
                  <TableHead>
                    <Trans>Name</Trans>
                  </TableHead>
                  <TableHead className="text-right">
                    <Trans>Price</Trans>
                  </TableHead>
                  <TableHead className="text-right">
                    <Trans>Inventory</Trans>
                  </TableHead>
                  <TableHead>
                    <Trans>Limits</Trans>
                  </TableHead>
                  <TableHead>
                    <Trans>Enabled</Trans>
                  </TableHead>
                  <TableHead className="text-right">
                    <Trans>Order</Trans>
                  </TableHead>
                  <TableHead className="text-right">
                    <Trans>Subscribers</Trans>
                  </TableHead>
                  <TableHead />
                </TableRow>
              </TableHeader>
              <TableBody>
                {list.length === 0 ? (
                  <EmptyRow columns={8}>
                    <Trans>No plans.</Trans>
                  </EmptyRow>
                ) : (
                  list.map((plan) => <PlanRow key={plan.id} plan={plan} onEdit={() => setEditing(plan)} />)
                )}
              </TableBody>
            </Table>
          </Card>
        )}
      </QueryView>
      {editing ? <PlanEditDialog key={editing.id} plan={editing} onClose={() => setEditing(null)} /> : null}
    </div>
  );
}

function PlanRow({ plan, onEdit }: { plan: TAdminPlan; onEdit: () => void }) {
  const { i18n } = useLingui();
  const time = formatRoomTime(i18n, plan.timeQuotaMinutes * 60);
  const freeTime = formatRoomTime(i18n, plan.freeTimeQuotaMinutes * 60);
  return (
    <TableRow data-testid="admin-plan-row" data-plan-code={plan.code}>
      <TableCell>
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
      </TableCell>
      <TableCell className="text-right" data-testid="admin-plan-price">
        {formatMoney(i18n, plan.price)}
      </TableCell>
      <TableCell className="text-right">{plan.inventory === null ? '∞' : plan.inventory}</TableCell>
      <TableCell className="text-muted-foreground text-xs">
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
      </TableCell>
      <TableCell>
        {plan.enabled ? (
          <Badge>
            <Trans>Enabled</Trans>
          </Badge>
        ) : (
          <Badge variant="secondary">
            <Trans>Disabled</Trans>
          </Badge>
        )}
      </TableCell>
      <TableCell className="text-right">{plan.sortOrder}</TableCell>
      <TableCell className="text-right">{plan.subscribers}</TableCell>
      <TableCell className="text-right">
        <Button size="sm" variant="outline" onClick={onEdit}>
          <PencilIcon />
          <Trans>Edit</Trans>
        </Button>
      </TableCell>
    </TableRow>
  );
}
