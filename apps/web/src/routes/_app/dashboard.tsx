// The dashboard: the caller's rooms with their actions, and the create-room dialog, which the top
// bar's create button opens through `?create=true`.
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@rooms/ui/button';
import { Card, CardContent } from '@rooms/ui/card';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { MonitorPlayIcon, PlusIcon, RefreshCwIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { ImpersonationNote } from '../../components/impersonation-banner';
import { QueryView } from '../../components/query-view';
import { useImpersonation } from '../../hooks/use-current-user';
import { useFailureToast } from '../../hooks/use-failure-toast';
import { trpc } from '../../lib/trpc';
import { BillingNotices } from './-components/billing-notices';
import { CreateRoomDialog } from './-components/create-room-dialog';
import { RoomCard } from './-components/room-card';
import { RoomInfoDialog } from './-components/room-info-dialog';

export const Route = createFileRoute('/_app/dashboard')({
  staticData: { title: msg`Dashboard` },
  validateSearch: (search: Record<string, unknown>): { create?: boolean } =>
    search.create === true || search.create === 'true' ? { create: true } : {},
  component: DashboardPage,
});

function DashboardPage() {
  const { t } = useLingui();
  const navigate = useNavigate({ from: Route.fullPath });
  const { create } = Route.useSearch();
  const [creating, setCreating] = useState(false);
  const [infoName, setInfoName] = useState<string | null>(null);
  const rooms = useQuery(trpc.room.getRoomList.queryOptions());
  const impersonated = useImpersonation() !== null;

  // The top bar's create button lands here with ?create=true: open the dialog and drop the flag from the URL.
  useEffect(() => {
    if (!create) return;
    setCreating(true);
    void navigate({ search: {}, replace: true });
  }, [create, navigate]);

  useFailureToast(rooms.error, t`Failed to retrieve the room list`);

  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="font-semibold text-2xl">
          <Trans>Dashboard</Trans>
        </h1>
        <div className="flex gap-2">
          <Button variant="outline" size="icon" onClick={() => rooms.refetch()} aria-label={t`Refresh`}>
            <RefreshCwIcon className={rooms.isFetching ? 'animate-spin' : undefined} />
          </Button>
          <Button onClick={() => setCreating(true)} data-testid="create-room">
            <PlusIcon />
            <Trans>Create room</Trans>
          </Button>
        </div>
      </div>
      {impersonated ? (
        <ImpersonationNote>
          <Trans>
            Rooms cannot be deleted while an administrator is signed in as this user. Every change made here
            is recorded in the audit log under the administrator’s name.
          </Trans>
        </ImpersonationNote>
      ) : null}
      <BillingNotices />
      <QueryView query={rooms} failure={<Trans>Failed to retrieve the room list</Trans>}>
        {(list) =>
          list.length === 0 ? (
            <Card data-testid="rooms-empty">
              <CardContent className="flex flex-col items-center gap-3 py-12 text-center">
                <MonitorPlayIcon className="size-10 text-muted-foreground" />
                <p className="font-medium">
                  <Trans>No rooms yet</Trans>
                </p>
                <p className="max-w-md text-muted-foreground text-sm">
                  <Trans>
                    Create a room to get a browser on our servers that you and your friends can watch and
                    drive together.
                  </Trans>
                </p>
                <Button onClick={() => setCreating(true)}>
                  <PlusIcon />
                  <Trans>Create room</Trans>
                </Button>
              </CardContent>
            </Card>
          ) : (
            <div className="grid grid-cols-1 gap-4 lg:grid-cols-2 2xl:grid-cols-3" data-testid="room-list">
              {list.map((room) => (
                <RoomCard key={room.id} room={room} onInfo={setInfoName} />
              ))}
            </div>
          )
        }
      </QueryView>
      <CreateRoomDialog open={creating} onOpenChange={setCreating} />
      <RoomInfoDialog name={infoName} onClose={() => setInfoName(null)} />
    </div>
  );
}
