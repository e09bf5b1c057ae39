// One account as an administrator sees it: profile, plan, balance with its ledger, bills, rooms, live sessions
// (sign-in-link sessions name the administrator) and reports against the user's rooms, with the actions above.
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@rooms/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@rooms/ui/card';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { ArrowLeftIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { QueryView } from '../../../../components/query-view';
import { useFailureToast } from '../../../../hooks/use-failure-toast';
import { formatMoney } from '../../../../lib/billing';
import { formatDateTime } from '../../../../lib/format';
import { trpc } from '../../../../lib/trpc';
import type { TAdminUserDetail } from '../-components/admin-api';
import { DisabledBadge, RoleBadge } from '../-components/admin-ui';
import { ReportsTable } from '../-components/reports-table';
import { UserActions } from '../-components/user-actions';
import {
  LedgerTable,
  SessionsTable,
  UserPaymentsTable,
  UserRoomsTable,
} from '../-components/user-detail-tables';

export const Route = createFileRoute('/_app/admin/users/$userId')({
  staticData: { title: msg`User management` },
  component: UserPage,
});

function UserPage() {
  const { t } = useLingui();
  const { userId } = Route.useParams();
  const detail = useQuery(trpc.admin.users.get.queryOptions({ userId }));
  useFailureToast(detail.error, t`Failed to retrieve the user`);

  return (
    <div className="grid gap-6">
      <div>
        <Button variant="ghost" size="sm" asChild>
          <Link to="/admin/users">
            <ArrowLeftIcon />
            <Trans>All users</Trans>
          </Link>
        </Button>
      </div>
      <QueryView query={detail} failure={<Trans>Failed to retrieve the user</Trans>}>
        {(data) => <UserDetail detail={data} />}
      </QueryView>
    </div>
  );
}

function Section({ title, children, testId }: { title: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <Card className="gap-3 pb-0" data-testid={testId}>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent className="px-0">{children}</CardContent>
    </Card>
  );
}

function Fact({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <div className="grid min-w-0 gap-0.5">
      <dt className="text-muted-foreground text-xs">{label}</dt>
      <dd className="break-words text-sm">{children}</dd>
    </div>
  );
}

function UserDetail({ detail }: { detail: TAdminUserDetail }) {
  const { i18n, t } = useLingui();
  const { user, plan } = detail;
  const expiry = plan.expiresAt ? formatDateTime(plan.expiresAt) : null;
  return (
    <>
      <div className="grid gap-3">
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="font-semibold text-2xl" data-testid="admin-user-name">
            {user.username}
          </h1>
          <RoleBadge role={user.role} />
          <DisabledBadge disabled={user.disabled} />
        </div>
        <UserActions detail={detail} />
      </div>

      <div className="grid gap-6 lg:grid-cols-2">
        <Card data-testid="admin-user-profile">
          <CardHeader>
            <CardTitle>
              <Trans>Profile</Trans>
            </CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid grid-cols-2 gap-4">
              <Fact label={<Trans>Name</Trans>}>{user.username}</Fact>
              <Fact label={<Trans>E-mail</Trans>}>{user.email}</Fact>
              <Fact label={<Trans>Role</Trans>}>
                <RoleBadge role={user.role} />
              </Fact>
              <Fact label={<Trans>Level</Trans>}>
                <span data-testid="admin-user-level">{user.level}</span>
              </Fact>
              <Fact label={<Trans>Status</Trans>}>
                {user.disabled ? <DisabledBadge disabled /> : <Trans>Active</Trans>}
              </Fact>
              <Fact label={<Trans>Signed up</Trans>}>{formatDateTime(user.createdAt)}</Fact>
              <Fact label={<Trans>Last login</Trans>}>
                {user.lastLoginAt ? formatDateTime(user.lastLoginAt) : '—'}
                {user.lastLoginIp ? (
                  <span className="ml-2 font-mono text-muted-foreground text-xs">{user.lastLoginIp}</span>
                ) : null}
              </Fact>
            </dl>
          </CardContent>
        </Card>
        <Card data-testid="admin-user-plan">
          <CardHeader>
            <CardTitle>
              <Trans>Plan and balance</Trans>
            </CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid grid-cols-2 gap-4">
              <Fact label={<Trans>Plan</Trans>}>
                <span data-testid="admin-user-plan-name">{plan.name}</span>
              </Fact>
              <Fact label={<Trans>Expires</Trans>}>{expiry ?? <Trans>Permanent</Trans>}</Fact>
              <Fact label={<Trans>Auto-renew</Trans>}>
                {plan.autoRenew ? <Trans>On</Trans> : <Trans>Off</Trans>}
              </Fact>
              <Fact label={<Trans>Balance</Trans>}>
                <span className="font-semibold" data-testid="admin-user-balance">
                  {formatMoney(i18n, detail.balance)}
                </span>
              </Fact>
            </dl>
          </CardContent>
        </Card>
      </div>

      <Section title={<Trans>Balance ledger</Trans>} testId="admin-user-ledger">
        <LedgerTable ledger={detail.ledger} />
      </Section>

      <Section title={<Trans>Bills</Trans>} testId="admin-user-payments">
        <UserPaymentsTable payments={detail.payments} />
      </Section>

      <Section title={<Trans>Rooms</Trans>} testId="admin-user-rooms">
        <UserRoomsTable rooms={detail.rooms} />
      </Section>

      <Section title={<Trans>Active sessions</Trans>} testId="admin-user-sessions">
        <SessionsTable sessions={detail.sessions} />
      </Section>

      <Section title={<Trans>Reports against this user’s rooms</Trans>} testId="admin-user-reports">
        <ReportsTable
          reports={detail.reports}
          showOwner={false}
          label={t`Reports against this user’s rooms`}
        />
      </Section>
    </>
  );
}
