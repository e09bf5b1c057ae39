// What covers the picture while the room is away: who stopped it or that it is restarting, a dropped connection
// with its next attempt, and for the owner the way to start it again. The page joins again by itself as soon as
// the room runs (lib/room/room-connection.ts), so nobody has to reload or go through the entry again.
import { useLingui } from '@lingui/react/macro';
import type { TRoomEnding } from '@rooms/api/room-protocol';
import { Button } from '@rooms/ui/button';
import { Spinner } from '@rooms/ui/spinner';
import { useMutation } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { PlayIcon, RefreshCwIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { toastError } from '../../../lib/notify';
import type { TConnectionStatus } from '../../../lib/room/room-snapshot';
import { storedUser } from '../../../lib/session';
import { trpcClient } from '../../../lib/trpc';

export function RoomAway({
  status,
  away,
  retryAt,
  roomId,
  isOwner,
  onRetry,
}: {
  status: TConnectionStatus;
  away: TRoomEnding | null;
  retryAt: number | null;
  roomId: string;
  isOwner: boolean;
  /** Tries to connect at once. */
  onRetry: () => void;
}) {
  const { t } = useLingui();

  if (status === 'reconnecting') {
    return (
      <Cover testId="room-reconnecting" busy>
        <p>{t`The connection to the room was lost.`}</p>
        <RetryCountdown retryAt={retryAt} />
        <Button variant="secondary" size="sm" onClick={onRetry} data-testid="room-retry-now">
          <RefreshCwIcon />
          {t`Try now`}
        </Button>
      </Cover>
    );
  }
  if (status !== 'waiting') return null;

  const reason = away?.reason ?? 'stopped';
  const by = away?.by ?? null;
  const byYou = by !== null && by === storedUser().username;
  const comesBack = reason === 'restarting' || reason === 'server-restart';
  const text =
    reason === 'restarting'
      ? byYou
        ? t`You are restarting the room…`
        : by
          ? t`${by} is restarting the room…`
          : t`Room restarting…`
      : reason === 'server-restart'
        ? t`The server is restarting; the room will be back in a moment…`
        : reason === 'crashed'
          ? t`The room’s browser stopped unexpectedly.`
          : reason === 'idle'
            ? t`The room closed itself after a while with nobody inside.`
            : reason === 'time-up'
              ? t`The room stopped: its owner’s room time ran out.`
              : reason === 'moderation'
                ? t`An administrator stopped the room.`
                : reason === 'account-disabled'
                  ? t`This room has ended: its owner’s account has been disabled.`
                  : byYou
                    ? t`You stopped the room.`
                    : by
                      ? t`${by} stopped the room.`
                      : t`The room is not running.`;

  return (
    <Cover testId="room-away" busy={comesBack} reason={reason}>
      <p data-testid="room-away-text">{text}</p>
      {comesBack || reason === 'account-disabled' ? null : isOwner ? (
        reason === 'time-up' ? (
          <Button asChild size="sm">
            <Link to="/planlist">{t`Get more room time`}</Link>
          </Button>
        ) : (
          <StartRoomButton roomId={roomId} onStarted={onRetry} />
        )
      ) : (
        <p className="text-xs">{t`You will be back inside as soon as it starts again.`}</p>
      )}
    </Cover>
  );
}

/** The owner's way back in: starts the room, then the page joins it again. */
export function StartRoomButton({ roomId, onStarted }: { roomId: string; onStarted: () => void }) {
  const { t, i18n } = useLingui();
  const start = useMutation({
    mutationFn: () => trpcClient.room.startRoom.mutate({ id: roomId }),
    onSuccess: onStarted,
    onError: (error) => toastError(i18n, error, { prefix: t`Failed to start the room` }),
  });
  return (
    <Button size="sm" onClick={() => start.mutate()} disabled={start.isPending} data-testid="room-away-start">
      {start.isPending ? <Spinner /> : <PlayIcon />}
      {t`Start the room`}
    </Button>
  );
}

function Cover({
  testId,
  busy,
  reason,
  children,
}: {
  testId: string;
  busy: boolean;
  reason?: string;
  children: React.ReactNode;
}) {
  return (
    <div
      className="absolute inset-0 z-10 flex flex-col items-center justify-center gap-3 bg-background/85 p-4 text-center text-muted-foreground text-sm"
      data-testid={testId}
      data-reason={reason}
      role="status"
    >
      {busy ? <Spinner /> : null}
      {children}
    </div>
  );
}

/** "Trying again in 4 s", counting down to the connection's next attempt. */
function RetryCountdown({ retryAt }: { retryAt: number | null }) {
  const { t } = useLingui();
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(performance.now()), 500);
    return () => clearInterval(timer);
  }, []);
  if (retryAt === null) return null;
  const seconds = Math.max(0, Math.ceil((retryAt - now) / 1000));
  return <p className="text-xs">{seconds > 0 ? t`Trying again in ${seconds} s…` : t`Reconnecting…`}</p>;
}
