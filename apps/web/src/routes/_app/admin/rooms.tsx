// Every room that is running now, across all servers, refreshed every few seconds; an administrator can stop one,
// saying why.
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@rooms/ui/button';
import { Card } from '@rooms/ui/card';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { RefreshCwIcon, SquareIcon } from 'lucide-react';
import { useState } from 'react';
import { QueryView } from '../../../components/query-view';
import { useFailureToast } from '../../../hooks/use-failure-toast';
import { trpc, trpcClient } from '../../../lib/trpc';
import { RoomStateBadge } from '../-components/room-state-badge';
import { type TAdminLiveRoom, useAdminMutation, useFailureText } from './-components/admin-api';
import { useAdminForm } from './-components/admin-form';
import { AdminPageHeader, formatUptime } from './-components/admin-ui';
import { column, DataTable, type TDataColumn } from './-components/data-table';
import { FormDialog } from './-components/form-dialog';
import { ReasonField } from './-components/reason-field';
import { ZReasonForm } from './-components/validation';

/** Often enough to look live; the list is read from memory on the server. */
const REFRESH_MS = 5000;

export const Route = createFileRoute('/_app/admin/rooms')({
  staticData: { title: msg`Running rooms` },
  component: RoomsPage,
});

function RoomsPage() {
  const { i18n, t } = useLingui();
  const rooms = useQuery({ ...trpc.admin.rooms.list.queryOptions(), refetchInterval: REFRESH_MS });
  useFailureToast(rooms.error, t`Failed to retrieve the rooms`);
  const [stopping, setStopping] = useState<TAdminLiveRoom | null>(null);
  const columns: TDataColumn<TAdminLiveRoom>[] = [
    column({
      id: 'name',
      header: <Trans>Name</Trans>,
      cellClassName: 'font-medium',
      cell: (room) => room.name,
    }),
    column({
      id: 'owner',
      header: <Trans>Owner</Trans>,
      cell: (room) => (
        <Link to="/admin/users/$userId" params={{ userId: room.owner.id }} className="hover:underline">
          {room.owner.email}
        </Link>
      ),
    }),
    column({ id: 'zone', header: <Trans>Zone</Trans>, cell: (room) => room.region }),
    column({
      id: 'state',
      header: <Trans>State</Trans>,
      cell: (room) => <RoomStateBadge state={room.state} />,
    }),
    column({
      id: 'members',
      header: <Trans>Members</Trans>,
      className: 'text-right',
      cell: (room) => room.members,
    }),
    column({
      id: 'uptime',
      header: <Trans>Uptime</Trans>,
      cellClassName: 'whitespace-nowrap',
      cell: (room) => formatUptime(i18n, room.uptimeSeconds),
    }),
    column({
      id: 'mediaPath',
      header: <Trans>Media path</Trans>,
      className: 'max-md:hidden',
      cellClassName: 'font-mono text-xs',
      cell: (room) => room.mediaPath ?? '—',
    }),
    column({
      id: 'fps',
      header: <Trans>FPS</Trans>,
      className: 'text-right max-md:hidden',
      cell: (room) => (room.fps === null ? '—' : i18n.number(room.fps, { maximumFractionDigits: 1 })),
    }),
    column({
      id: 'stop',
      cellClassName: 'text-right',
      cell: (room) => (
        <Button
          size="sm"
          variant="destructive"
          disabled={room.state === 'stopping'}
          onClick={() => setStopping(room)}
        >
          <SquareIcon />
          <Trans>Stop</Trans>
        </Button>
      ),
    }),
  ];

  return (
    <div className="grid gap-6">
      <AdminPageHeader
        title={<Trans>Running rooms</Trans>}
        description={<Trans>Refreshed every 5 seconds.</Trans>}
      >
        <Button variant="outline" size="icon" onClick={() => rooms.refetch()} aria-label={t`Refresh`}>
          <RefreshCwIcon className={rooms.isFetching ? 'animate-spin' : undefined} />
        </Button>
      </AdminPageHeader>
      <QueryView query={rooms} failure={<Trans>Failed to retrieve the rooms</Trans>}>
        {(list) => (
          <Card className="gap-0 overflow-hidden py-0">
            <DataTable
              testId="admin-rooms"
              label={t`Running rooms`}
              columns={columns}
              rows={list}
              rowId={(room) => room.id}
              rowProps={(room) => ({ 'data-testid': 'admin-room-row', 'data-room-name': room.name })}
              empty={<Trans>No room is running.</Trans>}
            />
          </Card>
        )}
      </QueryView>
      {stopping ? (
        <StopRoomDialog key={stopping.id} room={stopping} onClose={() => setStopping(null)} />
      ) : null}
    </div>
  );
}

const STOP_ERROR_ID = 'stop-room-error';

/** Mounted per room being stopped (keyed by the caller), so the reason starts empty. */
function StopRoomDialog({ room, onClose }: { room: TAdminLiveRoom; onClose: () => void }) {
  const { i18n } = useLingui();
  const { form, invalid } = useAdminForm(ZReasonForm, { reason: '' });
  const stop = useAdminMutation(
    (why: string) => trpcClient.admin.rooms.stop.mutate({ roomId: room.id, reason: why }),
    { success: () => i18n._(msg`The room is stopping`), toastFailure: false, onSuccess: onClose },
  );
  const serverError = useFailureText(stop.error);
  const stoppingName = room.name;
  const stoppingOwner = room.owner.email;
  return (
    <FormDialog
      open
      destructive
      testId="stop-room-dialog"
      title={<Trans>Stop the room?</Trans>}
      description={
        <Trans>
          Everyone in “{stoppingName}” (owned by {stoppingOwner}) is disconnected and the browser is closed.
        </Trans>
      }
      submitLabel={<Trans>Stop</Trans>}
      pending={stop.isPending}
      error={invalid?.text ?? serverError}
      errorId={STOP_ERROR_ID}
      onSubmit={form.handleSubmit(({ reason }) => stop.mutate(reason))}
      onClose={onClose}
    >
      <ReasonField
        id="stop-room-reason"
        field={form.register('reason')}
        invalid={invalid?.field === 'reason'}
        errorId={STOP_ERROR_ID}
      />
    </FormDialog>
  );
}
