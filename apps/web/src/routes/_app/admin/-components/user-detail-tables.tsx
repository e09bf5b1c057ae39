// The tables of a user's page: the balance ledger, the bills, the rooms and the sessions open now.
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge } from '@rooms/ui/badge';
import { formatMoney, paymentMethodLabel } from '../../../../lib/billing';
import { formatDateTime } from '../../../../lib/format';
import { RoomStateBadge } from '../../-components/room-state-badge';
import { PaymentStatusBadge } from '../../bill/-components/payment-status-badge';
import type { TAdminUserDetail } from './admin-api';
import { ledgerKindLabel } from './admin-ui';
import { column, DataTable, type TDataColumn } from './data-table';

type TLedgerEntry = TAdminUserDetail['ledger'][number];
type TUserPayment = TAdminUserDetail['payments'][number];
type TUserRoom = TAdminUserDetail['rooms'][number];
type TUserSession = TAdminUserDetail['sessions'][number];

export function LedgerTable({ ledger }: { ledger: TLedgerEntry[] }) {
  const { i18n, t } = useLingui();
  const columns: TDataColumn<TLedgerEntry>[] = [
    column({
      id: 'time',
      header: <Trans>Time</Trans>,
      cellClassName: 'whitespace-nowrap',
      cell: (entry) => formatDateTime(entry.createdAt),
    }),
    column({ id: 'kind', header: <Trans>Kind</Trans>, cell: (entry) => ledgerKindLabel(i18n, entry.kind) }),
    column({
      id: 'amount',
      header: <Trans>Amount</Trans>,
      className: 'text-right',
      cellClassName: (entry) => (entry.amount < 0 ? 'text-destructive' : ''),
      cell: (entry) => formatMoney(i18n, entry.amount),
    }),
    column({
      id: 'note',
      header: <Trans>Note</Trans>,
      cellClassName: 'max-w-md break-words',
      cell: (entry) => entry.note ?? '',
    }),
  ];
  return (
    <DataTable
      label={t`Balance ledger`}
      columns={columns}
      rows={ledger}
      rowId={(entry) => entry.id}
      empty={<Trans>No entries.</Trans>}
    />
  );
}

export function UserPaymentsTable({ payments }: { payments: TUserPayment[] }) {
  const { i18n, t } = useLingui();
  const columns: TDataColumn<TUserPayment>[] = [
    column({
      id: 'orderNo',
      header: <Trans>Order number</Trans>,
      cellClassName: 'font-mono text-xs',
      cell: (payment) => payment.out_trade_no,
    }),
    column({
      id: 'amount',
      header: <Trans>Amount</Trans>,
      cell: (payment) => formatMoney(i18n, payment.amount),
    }),
    column({
      id: 'method',
      header: <Trans>Payment method</Trans>,
      className: 'max-md:hidden',
      cell: (payment) => paymentMethodLabel(i18n, payment.method),
    }),
    column({
      id: 'status',
      header: <Trans>Status</Trans>,
      cell: (payment) => <PaymentStatusBadge status={payment.status} />,
    }),
    column({
      id: 'createdAt',
      header: <Trans>Created</Trans>,
      className: 'max-md:hidden',
      cellClassName: 'whitespace-nowrap',
      cell: (payment) => formatDateTime(payment.createdAt),
    }),
    column({
      id: 'paidAt',
      header: <Trans>Paid</Trans>,
      className: 'max-lg:hidden',
      cellClassName: 'whitespace-nowrap',
      cell: (payment) => (payment.paidAt ? formatDateTime(payment.paidAt) : '—'),
    }),
    column({
      id: 'refundedAt',
      header: <Trans>Refunded</Trans>,
      className: 'max-lg:hidden',
      cellClassName: 'whitespace-nowrap',
      cell: (payment) => (payment.refundedAt ? formatDateTime(payment.refundedAt) : '—'),
    }),
  ];
  return (
    <DataTable
      label={t`Bills`}
      columns={columns}
      rows={payments}
      rowId={(payment) => payment.id}
      empty={<Trans>No bills yet.</Trans>}
    />
  );
}

const roomColumns: TDataColumn<TUserRoom>[] = [
  column({
    id: 'name',
    header: <Trans>Name</Trans>,
    cellClassName: 'font-medium',
    cell: (room) => room.name,
  }),
  column({
    id: 'state',
    header: <Trans>State</Trans>,
    cell: (room) => <RoomStateBadge state={room.state} />,
  }),
  column({ id: 'zone', header: <Trans>Zone</Trans>, cell: (room) => room.region }),
  column({
    id: 'visibility',
    header: <Trans>Visibility</Trans>,
    cell: (room) => (
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
    ),
  }),
  column({
    id: 'createdAt',
    header: <Trans>Created</Trans>,
    className: 'max-md:hidden',
    cellClassName: 'whitespace-nowrap',
    cell: (room) => formatDateTime(room.createdAt),
  }),
  column({
    id: 'lastStartedAt',
    header: <Trans>Last started</Trans>,
    className: 'max-md:hidden',
    cellClassName: 'whitespace-nowrap',
    cell: (room) => (room.lastStartedAt ? formatDateTime(room.lastStartedAt) : '—'),
  }),
];

export function UserRoomsTable({ rooms }: { rooms: TUserRoom[] }) {
  const { t } = useLingui();
  return (
    <DataTable
      label={t`Rooms`}
      columns={roomColumns}
      rows={rooms}
      rowId={(room) => room.id}
      rowProps={() => ({ 'data-testid': 'admin-user-room' })}
      empty={<Trans>No rooms.</Trans>}
    />
  );
}

const sessionColumns: TDataColumn<TUserSession>[] = [
  column({
    id: 'createdAt',
    header: <Trans>Signed in</Trans>,
    cellClassName: 'whitespace-nowrap',
    cell: (session) => formatDateTime(session.createdAt),
  }),
  column({
    id: 'expiresAt',
    header: <Trans>Expires</Trans>,
    cellClassName: 'whitespace-nowrap',
    cell: (session) => formatDateTime(session.expiresAt),
  }),
  column({
    id: 'ip',
    header: <Trans>IP</Trans>,
    cellClassName: 'font-mono text-xs',
    cell: (session) => session.ip ?? '—',
  }),
  column({
    id: 'browser',
    header: <Trans>Browser</Trans>,
    className: 'max-lg:hidden',
    cellClassName: 'max-w-xs truncate text-muted-foreground text-xs',
    cell: (session) => session.userAgent ?? '',
  }),
  column({
    id: 'impersonation',
    cell: (session) => {
      const admin = session.impersonatedBy;
      return admin ? (
        <Badge variant="warning" data-testid="session-impersonated">
          <Trans>Opened by administrator {admin}</Trans>
        </Badge>
      ) : null;
    },
  }),
];

export function SessionsTable({ sessions }: { sessions: TUserSession[] }) {
  const { t } = useLingui();
  return (
    <DataTable
      label={t`Active sessions`}
      columns={sessionColumns}
      rows={sessions}
      rowId={(session) => session.id}
      rowProps={() => ({ 'data-testid': 'admin-user-session' })}
      empty={<Trans>No active sessions.</Trans>}
    />
  );
}
