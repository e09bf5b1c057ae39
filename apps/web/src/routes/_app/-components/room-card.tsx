// One room on the dashboard: its settings at a glance and the owner's actions. While the room is starting or
// stopping it polls updateState and writes the answer into the room list.
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge } from '@rooms/ui/badge';
import { Button } from '@rooms/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@rooms/ui/card';
import { Spinner } from '@rooms/ui/spinner';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import {
  GlobeIcon,
  InfoIcon,
  LockIcon,
  LogInIcon,
  PlayIcon,
  RotateCwIcon,
  SquareIcon,
  Trash2Icon,
} from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useImpersonation } from '../../../hooks/use-current-user';
import { translateServerText } from '../../../lib/messages';
import { toastError, toastSuccess } from '../../../lib/notify';
import { TRANSITIONAL_STATES, type TRoomListItem, type TRoomState } from '../../../lib/room/room-types';
import { trpc, trpcClient } from '../../../lib/trpc';
import { RoomStateBadge } from './room-state-badge';

const POLL_MS = 1500;

type TAction = 'start' | 'stop' | 'restart' | 'delete';

export function RoomCard({ room, onInfo }: { room: TRoomListItem; onInfo: (name: string) => void }) {
  const { i18n, t } = useLingui();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const listKey = trpc.room.getRoomList.queryKey();
  const [confirmDelete, setConfirmDelete] = useState(false);
  // Deleting cannot be undone: it is the owner's own to do, not an administrator's signed in as them (the server
  // refuses it too; the dashboard says why).
  const impersonated = useImpersonation() !== null;
  /** A stop or restart waiting for the owner's yes, with how many people it would interrupt. */
  const [interrupting, setInterrupting] = useState<{ kind: 'stop' | 'restart'; inside: number } | null>(null);

  const setState = (state: TRoomState) =>
    queryClient.setQueryData(listKey, (rooms) =>
      rooms?.map((item) => (item.id === room.id ? { ...item, state } : item)),
    );

  const applied = useRef(0);
  const action = useMutation({
    mutationFn: async (kind: TAction) => {
      const target = { id: room.id, name: room.name };
      if (kind === 'start') return trpcClient.room.startRoom.mutate(target);
      if (kind === 'stop') return trpcClient.room.stopRoom.mutate(target);
      if (kind === 'restart') return trpcClient.room.restartRoom.mutate(target);
      await trpcClient.room.deleteRoom.mutate(target);
      return null;
    },
    onMutate: (kind) => {
      if (kind === 'start' || kind === 'restart') setState('starting');
      if (kind === 'stop') setState('stopping');
    },
    onSuccess: async (reply, kind) => {
      applied.current = Date.now();
      if (reply) setState(reply.state);
      if (kind === 'delete') toastSuccess(i18n, t`Room ${room.name} deleted`);
      await queryClient.invalidateQueries({ queryKey: listKey });
    },
    onError: async (error, kind) => {
      const prefix = {
        start: t`Failed to start the room`,
        stop: t`Failed to stop the room`,
        restart: t`Failed to restart the room`,
        delete: t`Failed to delete the room`,
      }[kind];
      toastError(i18n, error, { prefix, unreachable: prefix });
      await queryClient.invalidateQueries({ queryKey: listKey });
    },
  });

  // While our own start/stop call is pending its answer is the truth; afterwards (or when another tab started
  // the room) poll updateState, and apply each answer once, when it arrives.
  const polling = TRANSITIONAL_STATES.includes(room.state) && !action.isPending;
  const state = useQuery({
    ...trpc.room.updateState.queryOptions({ name: room.name }),
    enabled: polling,
    refetchInterval: POLL_MS,
    staleTime: 0,
    gcTime: 0,
  });
  useEffect(() => {
    if (!polling || !state.data || state.dataUpdatedAt <= applied.current) return;
    applied.current = state.dataUpdatedAt;
    if (state.data.state !== room.state) setState(state.data.state);
  });

  // Stopping or restarting with people inside asks first; the count is asked fresh, the list may be old.
  const stopOrRestart = async (kind: 'stop' | 'restart') => {
    const inside = await trpcClient.room.getRoomInfo
      .query({ name: room.name })
      .then((info) => info.memberCount)
      .catch(() => room.memberCount);
    if (inside > 0) setInterrupting({ kind, inside });
    else action.mutate(kind);
  };

  const busy = action.isPending || polling;
  const running = room.state === 'running';

  return (
    <Card className="gap-3" data-testid="room-card" data-room-name={room.name} data-state={room.state}>
      <CardHeader className="gap-1">
        <div className="flex items-start justify-between gap-2">
          <CardTitle className="flex min-w-0 items-center gap-2 text-lg">
            <span className="truncate">{room.name}</span>
            {room.hasPassword ? (
              <LockIcon className="size-4 shrink-0 text-muted-foreground" aria-label={t`Password`} />
            ) : null}
          </CardTitle>
          <RoomStateBadge state={room.state} />
        </div>
        {room.remark ? <CardDescription className="line-clamp-2">{room.remark}</CardDescription> : null}
      </CardHeader>
      <CardContent className="grid gap-3">
        <div className="flex flex-wrap gap-1.5 text-xs">
          <Badge variant="outline">{translateServerText(i18n, room.region.name)}</Badge>
          <Badge variant="outline">{translateServerText(i18n, room.image.name)}</Badge>
          <Badge variant="outline">
            {room.width}×{room.height} · {room.maxFrameRate} fps
          </Badge>
          {room.isPublic ? (
            <Badge variant="warning">
              <GlobeIcon />
              <Trans>Public</Trans>
            </Badge>
          ) : null}
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            size="sm"
            disabled={!running}
            onClick={() => navigate({ to: '/room/$id', params: { id: room.id } })}
            data-testid="room-enter"
          >
            <LogInIcon />
            <Trans>Enter</Trans>
          </Button>
          {running || room.state === 'stopping' ? (
            <Button
              size="sm"
              variant="outline"
              disabled={busy}
              onClick={() => void stopOrRestart('stop')}
              data-testid="room-stop"
            >
              {action.isPending && action.variables === 'stop' ? <Spinner /> : <SquareIcon />}
              <Trans>Stop</Trans>
            </Button>
          ) : (
            <Button
              size="sm"
              variant="outline"
              disabled={busy}
              onClick={() => action.mutate('start')}
              data-testid="room-start"
            >
              {action.isPending && action.variables === 'start' ? <Spinner /> : <PlayIcon />}
              <Trans>Start</Trans>
            </Button>
          )}
          <Button
            size="sm"
            variant="outline"
            disabled={busy || room.state === 'stopped'}
            onClick={() => void stopOrRestart('restart')}
            data-testid="room-restart"
          >
            <RotateCwIcon />
            <Trans>Restart</Trans>
          </Button>
          <Button size="sm" variant="ghost" onClick={() => onInfo(room.name)} data-testid="room-info">
            <InfoIcon />
            <Trans>Info</Trans>
          </Button>
          <Button
            size="sm"
            variant="ghost"
            className="text-destructive hover:text-destructive"
            disabled={action.isPending || impersonated}
            title={
              impersonated
                ? t`Rooms cannot be deleted while an administrator is signed in as this user`
                : undefined
            }
            onClick={() => setConfirmDelete(true)}
            data-testid="room-delete"
          >
            <Trash2Icon />
            <Trans>Delete</Trans>
          </Button>
        </div>
      </CardContent>
      <ConfirmDialog
        open={confirmDelete}
        title={<Trans>Delete this room?</Trans>}
        confirmLabel={<Trans>Delete</Trans>}
        destructive
        testId="delete-room-dialog"
        onCancel={() => setConfirmDelete(false)}
        onConfirm={() => {
          setConfirmDelete(false);
          action.mutate('delete');
        }}
      >
        <Trans>The room {room.name} and its browser data will be deleted. This cannot be undone.</Trans>
      </ConfirmDialog>
      <ConfirmDialog
        open={interrupting !== null}
        title={
          interrupting?.kind === 'restart' ? (
            <Trans>Restart this room?</Trans>
          ) : (
            <Trans>Stop this room?</Trans>
          )
        }
        confirmLabel={interrupting?.kind === 'restart' ? <Trans>Restart</Trans> : <Trans>Stop</Trans>}
        destructive={interrupting?.kind === 'stop'}
        testId="room-interrupt-dialog"
        onCancel={() => setInterrupting(null)}
        onConfirm={() => {
          if (interrupting) action.mutate(interrupting.kind);
          setInterrupting(null);
        }}
      >
        {interrupting?.kind === 'restart' ? (
          <Trans>
            People inside now: {interrupting.inside}. They see the room restart and are back in by themselves
            a moment later.
          </Trans>
        ) : (
          <Trans>
            People inside now: {interrupting?.inside ?? 0}. They are told you stopped the room, and are let
            back in when you start it again.
          </Trans>
        )}
      </ConfirmDialog>
    </Card>
  );
}
