// The owner's share section of the room information dialog: the share link on the share domain
// (password in its fragment, when the owner includes it), the password, copy buttons, the room's QR code
// (300×300, level Q), the social buttons of the site's share dialog, changing or clearing the password, and
// listing the room in the public square after the danger warning, and the knock link (room-knock-share.tsx).
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@rooms/ui/button';
import { Checkbox } from '@rooms/ui/checkbox';
import { Input } from '@rooms/ui/input';
import { Label } from '@rooms/ui/label';
import { Spinner } from '@rooms/ui/spinner';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CopyIcon } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { QR_DEFAULT_SIZE, useQrDataUrl } from '../../../components/layout/qr-popover';
import { SocialShareButtons } from '../../../components/layout/share-dialog';
import { roomShareLink } from '../../../components/layout/share-links';
import { copyToClipboard } from '../../../lib/clipboard';
import { toastError, toastSuccess } from '../../../lib/notify';
import { SITE_TITLE } from '../../../lib/site';
import { trpc, trpcClient } from '../../../lib/trpc';
import { PublicRoomSwitch } from './public-room-switch';
import { RoomKnockShare } from './room-knock-share';

export interface TShareableRoom {
  id: string;
  name: string;
  password: string | null;
  isPublic: boolean;
  /** The knock link's token; null while knocking is off. */
  knockToken?: string | null;
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
  // The field follows the stored password whenever the server's answer changes it, so it never shows one the
  // room no longer has (or hides one it still has).
  const [stored, setStored] = useState(room.password);
  if (stored !== room.password) {
    setStored(room.password);
    setPassword(room.password ?? '');
  }

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

      <PublicRoomSwitch
        checked={room.isPublic}
        disabled={update.isPending}
        onChange={(isPublic) => update.mutate({ isPublic })}
        testId="room-share-public"
        hasPassword={!!room.password}
      />

      <RoomKnockShare room={room} shareDomain={shareDomain} />

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
    </section>
  );
}
