// The owner's share section of the room information dialog (spec §2, §6): the share link on the share domain
// (password in its fragment, when the owner includes it), the password, copy buttons, the room's QR code
// (300×300, level Q), the social buttons of the site's share dialog, changing or clearing the password, and
// listing the room in the public square after the danger warning.
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@rooms/ui/button';
import { Checkbox } from '@rooms/ui/checkbox';
import { Input } from '@rooms/ui/input';
import { Label } from '@rooms/ui/label';
import { Spinner } from '@rooms/ui/spinner';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CopyIcon, GlobeIcon, TriangleAlertIcon } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { QR_DEFAULT_SIZE, useQrDataUrl } from '../../../components/layout/qr-popover';
import { SocialShareButtons } from '../../../components/layout/share-dialog';
import { roomShareLink } from '../../../components/layout/share-links';
import { copyToClipboard } from '../../../lib/clipboard';
import { toastError, toastSuccess } from '../../../lib/notify';
import { SITE_TITLE } from '../../../lib/site';
import { trpc, trpcClient } from '../../../lib/trpc';

export interface TShareableRoom {
  id: string;
  name: string;
  password: string | null;
  isPublic: boolean;
}

export function RoomShare({ room }: { room: TShareableRoom }) {
  const { i18n, t } = useLingui();
  const id = useId();
  const queryClient = useQueryClient();
  const domain = useQuery({
    ...trpc.room.getShareDomain.queryOptions(),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const [withPassword, setWithPassword] = useState(true);
  const [password, setPassword] = useState(room.password ?? '');
  const [confirmPublic, setConfirmPublic] = useState(false);

  const shareDomain = domain.data ?? location.origin;
  const link = roomShareLink(shareDomain, room.id, withPassword ? room.password : null);
  const qr = useQrDataUrl(link, QR_DEFAULT_SIZE, 'Q');
  const title = i18n._(SITE_TITLE);
  const text = t`Join my room ${room.name} and browse the web together:`;

  const update = useMutation({
    mutationFn: (change: { password?: string | null; isPublic?: boolean }) =>
      trpcClient.room.updateRoomShare.mutate({ id: room.id, ...change }),
    onSuccess: async (info, change) => {
      queryClient.setQueryData(trpc.room.getRoomInfo.queryKey({ name: room.name }), info);
      if (change.password !== undefined) {
        setPassword(info.password ?? '');
        toastSuccess(
          i18n,
          info.password ? t`The room password was changed` : t`The room password was cleared`,
        );
      } else {
        toastSuccess(i18n, info.isPublic ? t`The room is now public` : t`The room is no longer public`);
      }
      await queryClient.invalidateQueries({ queryKey: trpc.room.getRoomList.queryKey() });
    },
    onError: (error) => {
      const text = t`Failed to change the sharing settings`;
      toastError(i18n, error, { prefix: text, unreachable: text });
    },
  });

  function savePassword(event: FormEvent) {
    event.preventDefault();
    update.mutate({ password: password.trim() || null });
  }

  return (
    <section className="grid gap-3" data-testid="room-share" aria-label={t`Share`}>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-link`}>
          <Trans>Share link</Trans>
        </Label>
        <div className="flex gap-2">
          <Input
            id={`${id}-link`}
            readOnly
            value={link}
            onFocus={(event) => event.target.select()}
            data-testid="room-share-link"
          />
          <Button
            variant="secondary"
            onClick={() => copyToClipboard(i18n, link)}
            data-testid="room-share-copy"
          >
            <CopyIcon />
            <span className="max-sm:sr-only">
              <Trans>Copy</Trans>
            </span>
          </Button>
        </div>
        {room.password ? (
          <Label className="font-normal text-sm">
            <Checkbox
              checked={withPassword}
              onCheckedChange={(checked) => setWithPassword(checked === true)}
              data-testid="room-share-with-password"
            />
            <Trans>Put the password in the link</Trans>
          </Label>
        ) : null}
      </div>

      <form className="grid gap-2" onSubmit={savePassword} noValidate>
        <Label htmlFor={`${id}-password`}>
          <Trans>Room password</Trans>
        </Label>
        <div className="flex flex-wrap gap-2">
          <Input
            id={`${id}-password`}
            className="min-w-40 flex-1"
            value={password}
            maxLength={32}
            placeholder={t`No password`}
            onChange={(event) => setPassword(event.target.value)}
            data-testid="room-share-password"
          />
          <Button
            type="button"
            variant="secondary"
            size="icon"
            disabled={!room.password}
            aria-label={t`Copy the password`}
            onClick={() => room.password && copyToClipboard(i18n, room.password)}
            data-testid="room-share-password-copy"
          >
            <CopyIcon />
          </Button>
          <Button
            type="submit"
            disabled={update.isPending || password.trim() === (room.password ?? '')}
            data-testid="room-share-password-save"
          >
            {update.isPending && update.variables?.password !== undefined ? <Spinner /> : null}
            <Trans>Save</Trans>
          </Button>
          <Button
            type="button"
            variant="outline"
            disabled={update.isPending || !room.password}
            onClick={() => update.mutate({ password: null })}
            data-testid="room-share-password-clear"
          >
            <Trans>Clear</Trans>
          </Button>
        </div>
        <p className="text-muted-foreground text-xs">
          <Trans>
            People already in the room stay when the password changes; newcomers need the new one. Without a
            password (and not public), only you can enter.
          </Trans>
        </p>
      </form>

      <div className="grid gap-2">
        <Label className="font-normal">
          <Checkbox
            checked={room.isPublic}
            disabled={update.isPending}
            onCheckedChange={(checked) =>
              checked === true ? setConfirmPublic(true) : update.mutate({ isPublic: false })
            }
            data-testid="room-share-public"
          />
          <GlobeIcon className="size-4" />
          <Trans>Show in the public square</Trans>
        </Label>
        {room.isPublic ? (
          <p className="flex items-start gap-2 rounded-md bg-destructive/15 p-2 text-destructive text-sm">
            <TriangleAlertIcon className="mt-0.5 size-4 shrink-0" />
            <Trans>A public room is open to anyone, without a password.</Trans>
          </p>
        ) : null}
      </div>

      <div className="flex justify-center">
        <div className="aspect-square w-full max-w-[308px] rounded-md bg-white p-1">
          {qr ? (
            <img
              src={qr}
              alt={t`QR code of the share link`}
              width={QR_DEFAULT_SIZE}
              height={QR_DEFAULT_SIZE}
              className="h-auto w-full"
              data-testid="room-share-qr"
            />
          ) : null}
        </div>
      </div>
      <SocialShareButtons url={link} text={text} title={title} />

      <MakePublicConfirm
        open={confirmPublic}
        onCancel={() => setConfirmPublic(false)}
        onConfirm={() => {
          setConfirmPublic(false);
          update.mutate({ isPublic: true });
        }}
      />
    </section>
  );
}

/** The danger warning of spec §6, asked before a room becomes public (here and in the create dialog). */
export function MakePublicConfirm({
  open,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <ConfirmDialog
      open={open}
      title={<Trans>Make this room public?</Trans>}
      confirmLabel={<Trans>Make public</Trans>}
      destructive
      testId="room-public-confirm"
      onCancel={onCancel}
      onConfirm={onConfirm}
    >
      <Trans>
        A public room is open to anyone, without a password: it is listed in the public square, anyone logged
        in can enter, watch and ask for control. Only make a room public if you are happy for strangers to
        join.
      </Trans>
    </ConfirmDialog>
  );
}
