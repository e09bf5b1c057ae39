// One account as an administrator sees it: profile, plan, balance with its ledger, bills, rooms, live sessions
// (sign-in-link sessions name the administrator) and reports against the user's rooms, with the actions above.
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge } from '@rooms/ui/badge';
import { Button } from '@rooms/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@rooms/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@rooms/ui/table';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { ArrowLeftIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { QueryView } from '../../../../components/query-view';
import { useFailureToast } from '../../../../hooks/use-failure-toast';
import { formatMoney, paymentMethodLabel } from '../../../../lib/billing';
import { formatDateTime } from '../../../../lib/format';
import { trpc } from '../../../../lib/trpc';
import { RoomStateBadge } from '../../-components/room-state-badge';
import { PaymentStatusBadge } from '../../bill/-components/payment-status-badge';
import type { TAdminUserDetail } from '../-components/admin-api';
import { DisabledBadge, EmptyRow, ledgerKindLabel, RoleBadge } from '../-components/admin-ui';
import { ReportsTable } from '../-components/reports-table';
import { UserActions } from '../-components/user-actions';

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
        <Table aria-label={t`Balance ledger`}>
          <TableHeader>
            <TableRow>
              <TableHead>
                <Trans>Time</Trans>
              </TableHead>
              <TableHead>
                <Trans>Kind</Trans>
              </TableHead>
              <TableHead className="text-right">
                <Trans>Amount</Trans>
              </TableHead>
              <TableHead>
                <Trans>Note</Trans>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {detail.ledger.length === 0 ? (
              <EmptyRow columns={4}>
                <Trans>No entries.</Trans>
              </EmptyRow>
            ) : (
              detail.ledger.map((entry) => (
                <TableRow key={entry.id}>
                  <TableCell className="whitespace-nowrap">{formatDateTime(entry.createdAt)}</TableCell>
                  <TableCell>{ledgerKindLabel(i18n, entry.kind)}</TableCell>
                  <TableCell className={entry.amount < 0 ? 'text-right text-destructive' : 'text-right'}>
                    {formatMoney(i18n, entry.amount)}
                  </TableCell>
                  <TableCell className="max-w-md break-words">{entry.note ?? ''}</TableCell>
                </TableRow>
              ))
            )}
          </TableBody>
        </Table>
      </Section>

      <Section title={<Trans>Bills</Trans>} testId="admin-user-payments">
        <Table aria-label={t`Bills`}>
          <TableHeader>
            <TableRow>
              <TableHead>
                <Trans>Order number</Trans>
              </TableHead>
              <TableHead>
                <Trans>Amount</Trans>
              </TableHead>
              <TableHead className="max-md:hidden">
                <Trans>Payment method</Trans>
              </TableHead>
              <TableHead>
                <Trans>Status</Trans>
              </TableHead>
              <TableHead className="max-md:hidden">
                <Trans>Created</Trans>
              </TableHead>
              <TableHead className="max-lg:hidden">
                <Trans>Paid</Trans>
              </TableHead>
              <TableHead className="max-lg:hidden">
                <Trans>Refunded</Trans>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {detail.payments.length === 0 ? (
              <EmptyRow columns={7}>
                <Trans>No bills yet.</Trans>
              </EmptyRow>
            ) : (
              detail.payments.map((payment) => (
                <TableRow key={payment.id}>
                  <TableCell className="font-mono text-xs">{payment.out_trade_no}</TableCell>
                  <TableCell>{formatMoney(i18n, payment.amount)}</TableCell>
                  <TableCell className="max-md:hidden">{paymentMethodLabel(i18n, payment.method)}</TableCell>
                  <TableCell>
                    <PaymentStatusBadge status={payment.status} />
                  </TableCell>
                  <TableCell className="whitespace-nowrap max-md:hidden">
                    {formatDateTime(payment.createdAt)}
                  </TableCell>
                  <TableCell className="whitespace-nowrap max-lg:hidden">
                    {payment.paidAt ? formatDateTime(payment.paidAt) : '—'}
                  </TableCell>
                  <TableCell className="whitespace-nowrap max-lg:hidden">
                    {payment.refundedAt ? formatDateTime(payment.refundedAt) : '—'}
                  </TableCell>
                </TableRow>
              ))
            )}
          </TableBody>
        </Table>
      </Section>

      <Section title={<Trans>Rooms</Trans>} testId="admin-user-rooms">
        <Table aria-label={t`Rooms`}>
          <TableHeader>
            <TableRow>
              <TableHead>
                <Trans>Name</Trans>
              </TableHead>
              <TableHead>
                <Trans>State</Trans>
              </TableHead>
              <TableHead>
                <Trans>Zone</Trans>
              </TableHead>
              <TableHead>
                <Trans>Visibility</Trans>
              </TableHead>
              <TableHead className="max-md:hidden">
                <Trans>Created</Trans>
              </TableHead>
              <TableHead className="max-md:hidden">
                <Trans>Last started</Trans>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {detail.rooms.length === 0 ? (
              <EmptyRow columns={6}>
                <Trans>No rooms.</Trans>
              </EmptyRow>
            ) : (
              detail.rooms.map((room) => (
                <TableRow key={room.id} data-testid="admin-user-room">
                  <TableCell className="font-medium">{room.name}</TableCell>
                  <TableCell>
                    <RoomStateBadge state={room.state} />
                  </TableCell>
                  <TableCell>{room.region}</TableCell>
                  <TableCell>
                    <span className="flex flex-wrap gap-1">
                      {room.isPublic ? (
                        <Badge variant="default">
                          <Trans>Public</Trans>
                        </Badge>
                      ) : (
                        <Badge variant="outline">
                          <Trans>Private</Trans>
                        </Badge>
                      )}
                      {room.hiddenFromSquare ? (
                        <Badge variant="secondary">
                          <Trans>Hidden from the square</Trans>
                        </Badge>
                      ) : null}
                    </span>
                  </TableCell>
                  <TableCell className="whitespace-nowrap max-md:hidden">
                    {formatDateTime(room.createdAt)}
                  </TableCell>
                  <TableCell className="whitespace-nowrap max-md:hidden">
                    {room.lastStartedAt ? formatDateTime(room.lastStartedAt) : '—'}
                  </TableCell>
                </TableRow>
              ))
            )}
          </TableBody>
        </Table>
      </Section>

      <Section title={<Trans>Active sessions</Trans>} testId="admin-user-sessions">
        <Table aria-label={t`Active sessions`}>
          <TableHeader>
            <TableRow>
              <TableHead>
                <Trans>Signed in</Trans>
              </TableHead>
              <TableHead>
                <Trans>Expires</Trans>
              </TableHead>
              <TableHead>
                <Trans>IP</Trans>
              </TableHead>
              <TableHead className="max-lg:hidden">
                <Trans>Browser</Trans>
              </TableHead>
              <TableHead />
            </TableRow>
          </TableHeader>
          <TableBody>
            {detail.sessions.length === 0 ? (
              <EmptyRow columns={5}>
                <Trans>No active sessions.</Trans>
              </EmptyRow>
            ) : (
              detail.sessions.map((session) => {
                const admin = session.impersonatedBy;
                return (
                  <TableRow key={session.id} data-testid="admin-user-session">
                    <TableCell className="whitespace-nowrap">{formatDateTime(session.createdAt)}</TableCell>
                    <TableCell className="whitespace-nowrap">{formatDateTime(session.expiresAt)}</TableCell>
                    <TableCell className="font-mono text-xs">{session.ip ?? '—'}</TableCell>
                    <TableCell className="max-w-xs truncate text-muted-foreground text-xs max-lg:hidden">
                      {session.userAgent ?? ''}
                    </TableCell>
                    <TableCell>
                      {admin ? (
                        <Badge variant="warning" data-testid="session-impersonated">
                          <Trans>Opened by administrator {admin}</Trans>
                        </Badge>
                      ) : null}
                    </TableCell>
                  </TableRow>
                );
              })
            )}
          </TableBody>
        </Table>
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
