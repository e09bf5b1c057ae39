// The public square: running rooms their owners made public, each with a live thumbnail (a still the
// server refreshes every few seconds, never a second stream), its owner, zone and head count, and a join button.
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge } from '@rooms/ui/badge';
import { Button } from '@rooms/ui/button';
import { Card, CardContent } from '@rooms/ui/card';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { GlobeIcon, LogInIcon, RefreshCwIcon, UsersIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { QueryView } from '../../components/query-view';
import { useFailureToast } from '../../hooks/use-failure-toast';
import { translateServerText } from '../../lib/messages';
import { trpc } from '../../lib/trpc';

export const Route = createFileRoute('/_app/publicrooms')({
  staticData: { title: msg`Public rooms` },
  component: PublicRoomsPage,
});

/** How often the list and the thumbnails refresh (the server keeps one still per room this long). */
const REFRESH_MS = 5000;

function useTicker(intervalMs: number): number {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((value) => value + 1), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return tick;
}

function PublicRoomsPage() {
  const { i18n, t } = useLingui();
  const navigate = useNavigate();
  const rooms = useQuery({ ...trpc.room.getPublicRoom.queryOptions(), refetchInterval: REFRESH_MS });
  const tick = useTicker(REFRESH_MS);

  useFailureToast(rooms.error, t`Failed to retrieve the public rooms`);

  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="grid gap-1">
          <h1 className="font-semibold text-2xl">
            <Trans>Public rooms</Trans>
          </h1>
          <p className="text-muted-foreground text-sm">
            <Trans>Rooms their owners opened to everyone. Join one to watch and browse together.</Trans>
          </p>
        </div>
        <Button variant="outline" size="icon" onClick={() => rooms.refetch()} aria-label={t`Refresh`}>
          <RefreshCwIcon className={rooms.isFetching ? 'animate-spin' : undefined} />
        </Button>
      </div>
      <QueryView query={rooms} failure={<Trans>Failed to retrieve the public rooms</Trans>}>
        {(list) =>
          list.length === 0 ? (
            <Card data-testid="public-rooms-empty">
              <CardContent className="flex flex-col items-center gap-3 py-12 text-center">
                <GlobeIcon className="size-10 text-muted-foreground" />
                <p className="font-medium">
                  <Trans>No public rooms are running right now</Trans>
                </p>
                <p className="max-w-md text-muted-foreground text-sm">
                  <Trans>Owners can make a room public from its information dialog on the dashboard.</Trans>
                </p>
              </CardContent>
            </Card>
          ) : (
            <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3" data-testid="public-rooms">
              {list.map((room) => {
                const full = room.memberCount >= room.maxConnections;
                return (
                  <Card
                    key={room.id}
                    className="gap-0 overflow-hidden py-0"
                    data-testid="public-room"
                    data-room-name={room.name}
                  >
                    <div className="relative aspect-video bg-muted">
                      <img
                        src={`${room.thumbnailUrl}&t=${tick}`}
                        alt={t`What room ${room.name} shows now`}
                        className="absolute inset-0 size-full object-cover"
                        loading="lazy"
                        data-testid="public-room-thumbnail"
                        onError={(event) => {
                          event.currentTarget.style.visibility = 'hidden';
                        }}
                        onLoad={(event) => {
                          event.currentTarget.style.visibility = 'visible';
                        }}
                      />
                      <Badge
                        className="absolute top-2 left-2"
                        variant="secondary"
                        data-testid="public-room-members"
                      >
                        <UsersIcon />
                        {room.memberCount}/{room.maxConnections}
                      </Badge>
                    </div>
                    <CardContent className="grid grid-cols-1 gap-2 p-4">
                      <div className="flex items-start justify-between gap-2">
                        <div className="min-w-0">
                          <h2 className="truncate font-semibold">{room.name}</h2>
                          <p className="truncate text-muted-foreground text-xs">
                            <Trans>
                              by {room.owner} · {translateServerText(i18n, room.region.name)}
                            </Trans>
                          </p>
                        </div>
                        <Button
                          size="sm"
                          className="shrink-0"
                          disabled={full}
                          onClick={() => navigate({ to: '/room/$id', params: { id: room.id } })}
                          data-testid="public-room-join"
                        >
                          <LogInIcon />
                          {full ? <Trans>Full</Trans> : <Trans>Join</Trans>}
                        </Button>
                      </div>
                      {room.remark ? (
                        <p className="wrap-anywhere line-clamp-2 text-muted-foreground text-sm">
                          {room.remark}
                        </p>
                      ) : null}
                    </CardContent>
                  </Card>
                );
              })}
            </div>
          )
        }
      </QueryView>
    </div>
  );
}
