// The owner's knock link in the share section: turned on, anyone with it may ask to be let in without the password
// (the owner, or a member they trust, lets them in or turns them away from the room); turned off, the link stops
// working, and turning it on again makes a new one.
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@rooms/ui/button';
import { Checkbox } from '@rooms/ui/checkbox';
import { Input } from '@rooms/ui/input';
import { Label } from '@rooms/ui/label';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CopyIcon, DoorOpenIcon } from 'lucide-react';
import { useId } from 'react';
import { roomKnockLink } from '../../../components/layout/share-links';
import { copyToClipboard } from '../../../lib/clipboard';
import { toastError, toastSuccess } from '../../../lib/notify';
import { trpc, trpcClient } from '../../../lib/trpc';

export function RoomKnockShare({
  room,
  shareDomain,
}: {
  room: { id: string; name: string; knockToken?: string | null | undefined };
  shareDomain: string;
}) {
  const { i18n, t } = useLingui();
  const id = useId();
  const queryClient = useQueryClient();
  const token = room.knockToken ?? null;
  const link = token ? roomKnockLink(shareDomain, room.id, token) : '';

  const update = useMutation({
    mutationFn: (knocking: boolean) => trpcClient.room.updateRoomShare.mutate({ id: room.id, knocking }),
    onSuccess: (info) => {
      queryClient.setQueryData(trpc.room.getRoomInfo.queryKey({ name: room.name }), info);
      toastSuccess(i18n, info.knockToken ? t`Knocking is on` : t`Knocking is off`);
    },
    onError: (error) => {
      const text = t`Failed to change the sharing settings`;
      toastError(i18n, error, { prefix: text, unreachable: text });
    },
  });

  return (
    <div className="grid gap-2" data-testid="room-knock">
      <Label className="font-normal">
        <Checkbox
          checked={token !== null}
          aria-disabled={update.isPending || undefined}
          onCheckedChange={(checked) => {
            if (!update.isPending) update.mutate(checked === true);
          }}
          data-testid="room-knock-switch"
        />
        <DoorOpenIcon className="size-4" />
        <Trans>Let people knock</Trans>
      </Label>
      <p className="text-muted-foreground text-xs">
        <Trans>
          Anyone with the knock link may ask to come in, without the password; you (or those you choose in the
          room) let them in or turn them away.
        </Trans>
      </p>
      {token ? (
        <div className="flex gap-2">
          <Input
            id={`${id}-knock`}
            readOnly
            aria-label={t`Knock link`}
            value={link}
            onFocus={(event) => event.target.select()}
            data-testid="room-knock-link"
          />
          <Button
            variant="secondary"
            onClick={() => copyToClipboard(i18n, link)}
            data-testid="room-knock-copy"
          >
            <CopyIcon />
            <span className="max-sm:sr-only">
              <Trans>Copy</Trans>
            </span>
          </Button>
        </div>
      ) : null}
    </div>
  );
}
