// The owner's view of one room (getRoomInfo): how to share it (link, password, QR code, social buttons, the
// public square), then every setting.
import { Trans, useLingui } from '@lingui/react/macro';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@rooms/ui/dialog';
import { Spinner } from '@rooms/ui/spinner';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useFailureToast } from '../../../hooks/use-failure-toast';
import { formatDateTime, formatMinutes } from '../../../lib/format';
import { translateServerText } from '../../../lib/messages';
import { trpc } from '../../../lib/trpc';
import { RoomShare } from './room-share';
import { RoomStateBadge } from './room-state-badge';

function Row({ label, children, testId }: { label: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <div className="grid gap-1 border-b py-2 last:border-0 sm:grid-cols-[10rem_1fr]">
      <dt className="text-muted-foreground text-sm">{label}</dt>
      <dd className="break-all text-sm" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

export function RoomInfoDialog({ name, onClose }: { name: string | null; onClose: () => void }) {
  const { i18n, t } = useLingui();
  const info = useQuery({
    ...trpc.room.getRoomInfo.queryOptions({ name: name ?? '' }),
    enabled: !!name,
    staleTime: 0,
  });
  useFailureToast(info.error, t`Failed to retrieve room information`);
  const room = info.data;

  return (
    <Dialog open={!!name} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent closeLabel={t`Close`} data-testid="room-info-dialog" className="md:max-w-xl">
        <DialogHeader>
          <DialogTitle>
            <Trans>Room information</Trans>
          </DialogTitle>
          <DialogDescription>{name}</DialogDescription>
        </DialogHeader>
        {info.isPending ? (
          <div className="flex justify-center py-8">
            <Spinner />
          </div>
        ) : room ? (
          <div className="grid max-h-[70dvh] gap-4 overflow-y-auto pr-1">
            <RoomShare room={room} />
            <dl className="border-t pt-2">
              <Row label={<Trans>Room name</Trans>}>{room.name}</Row>
              <Row label={<Trans>Remark</Trans>}>{room.remark || '—'}</Row>
              <Row label={<Trans>State</Trans>}>
                <RoomStateBadge state={room.state} />
              </Row>
              <Row label={<Trans>Room password</Trans>} testId="room-info-password">
                {room.password ?? <span className="text-muted-foreground">{t`None`}</span>}
              </Row>
              <Row label={<Trans>Public square</Trans>} testId="room-info-public">
                {room.isPublic ? t`Yes` : t`No`}
              </Row>
              <Row label={<Trans>Zone</Trans>}>{translateServerText(i18n, room.region.name)}</Row>
              <Row label={<Trans>Image</Trans>}>{translateServerText(i18n, room.image.name)}</Row>
              {room.startUrl ? <Row label={<Trans>Start address</Trans>}>{room.startUrl}</Row> : null}
              <Row label={<Trans>Resolution</Trans>}>
                {room.width}×{room.height}
              </Row>
              <Row label={<Trans>Frame rate</Trans>}>{room.maxFrameRate} fps</Row>
              <Row label={<Trans>Video bitrate</Trans>}>{room.videoBitrateKbps} kbps</Row>
              <Row label={<Trans>Max connections</Trans>}>{room.maxConnections}</Row>
              <Row label={<Trans>Keep browser data</Trans>}>{room.keepData ? t`Yes` : t`No`}</Row>
              <Row label={<Trans>Auto-close</Trans>}>
                {room.autoClose
                  ? t`After ${formatMinutes(i18n, room.autoCloseMinutes)} without anyone connected`
                  : t`Off`}
              </Row>
              <Row label={<Trans>Owner</Trans>}>{room.owner}</Row>
              <Row label={<Trans>Created</Trans>}>{formatDateTime(room.createdAt)}</Row>
              <Row label={<Trans>Last started</Trans>}>
                {room.lastStartedAt ? formatDateTime(room.lastStartedAt) : '—'}
              </Row>
            </dl>
          </div>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
