import { Trans } from '@lingui/react/macro';
import { Badge } from '@rooms/ui/badge';
import { cn } from '@rooms/ui/lib/utils';
import { LoaderCircleIcon } from 'lucide-react';
import type { TRoomState } from '../../../lib/room/room-types';

const LABELS = {
  running: <Trans>Running</Trans>,
  stopped: <Trans>Stopped</Trans>,
  starting: <Trans>Starting</Trans>,
  stopping: <Trans>Stopping</Trans>,
  crashed: <Trans>Crashed</Trans>,
} satisfies Record<TRoomState, React.ReactNode>;

export function RoomStateBadge({ state, className }: { state: TRoomState; className?: string }) {
  return (
    <Badge
      data-testid="room-state"
      data-state={state}
      variant={state === 'running' ? 'default' : state === 'crashed' ? 'warning' : 'secondary'}
      className={cn(state === 'crashed' && 'bg-destructive/20 text-destructive', className)}
    >
      {state === 'starting' || state === 'stopping' ? <LoaderCircleIcon className="animate-spin" /> : null}
      {LABELS[state]}
    </Badge>
  );
}
