// A room shared by link, open without an account: the room password when it has one (or the one the
// link carries in its fragment; asked once per tab and sent only in request bodies), under the room's name and who
// invites (room.getShareInvite, all a link tells before its password), then the same entry as the
// room page (the nickname, and the 'may disturb' confirmation when others are inside) and the same room. A guest
// joins with a guest ticket; someone logged in joins as themselves.
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { TCaptchaFields } from '@rooms/api/client';
import { Button } from '@rooms/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@rooms/ui/card';
import { Input } from '@rooms/ui/input';
import { Label } from '@rooms/ui/label';
import { Spinner } from '@rooms/ui/spinner';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { LockIcon, RefreshCwIcon } from 'lucide-react';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { CaptchaWidget } from '../../../components/captcha/captcha-widget';
import { useCaptcha } from '../../../components/captcha/use-captcha';
import { knockFromHash, passwordFromHash } from '../../../components/layout/share-links';
import { StandaloneLoading, StandalonePage } from '../../../components/standalone-page';
import { describeError, translateServerText } from '../../../lib/messages';
import { toastIssue } from '../../../lib/notify';
import { rememberedSharePassword, rememberSharePassword } from '../../../lib/room/entry-memory';
import { rememberedKnockToken, rememberKnockToken } from '../../../lib/room/knock-state';
import { isLoggedIn } from '../../../lib/session';
import { appCodeOf, trpc } from '../../../lib/trpc';
import { Notice, RoomExperience, type TRoomHome } from '../../room/-components/room-experience';

export const Route = createFileRoute('/share/room/$id')({
  staticData: { title: msg`Shared room` },
  component: SharedRoomPage,
});

/** Answers that mean "ask for the password (again)"; anything else ends on a notice. */
/**
 * Answers after several wrong passwords from this network: the next try goes with a solved captcha (and a
 * captcha that failed or was spent is solved again).
 */
const CAPTCHA_PASSWORD_CODES = [
  'ROOM_PASSWORD_INCORRECT_VERIFY',
  'ROOM_PASSWORD_VERIFY_REQUIRED',
  'CAPTCHA_REQUIRED',
  'CAPTCHA_FAILED',
  'PASS_TOKEN_USED',
];

const PASSWORD_CODES = [
  'ROOM_PASSWORD_REQUIRED',
  'ROOM_PASSWORD_INCORRECT',
  'ROOM_PASSWORD_TRIES_LEFT',
  'TOO_MANY_REQUESTS',
  ...CAPTCHA_PASSWORD_CODES,
];

function homeOf(): TRoomHome {
  return isLoggedIn()
    ? { to: '/dashboard', label: msg`Back to the dashboard` }
    : { to: '/', label: msg`Go to the home page` };
}

function SharedRoomPage() {
  const { id } = Route.useParams();
  const { i18n } = useLingui();
  const navigate = useNavigate();
  const home = homeOf();
  // The link's fragment, else what this tab entered before: a reload goes straight back in.
  const [password, setPassword] = useState<string | undefined>(
    () =>
      passwordFromHash(typeof location === 'undefined' ? '' : location.hash) ??
      rememberedSharePassword(id) ??
      undefined,
  );

  // A knock link's token (its fragment, else this tab's): the room is entered by knocking, without the password.
  const [knock] = useState<string | undefined>(
    () =>
      knockFromHash(typeof location === 'undefined' ? '' : location.hash) ??
      rememberedKnockToken(id) ??
      undefined,
  );

  // The captcha that goes with a typed password once the room asks for one; later calls rely on the password.
  const [captcha, setCaptcha] = useState<TCaptchaFields | undefined>();

  // "Needs a password" is an answer (passwordRequired), not a 403: a link opened without it is the usual way in.
  const entry = useQuery({
    ...trpc.room.getRoomEntry.queryOptions({ id, password, knock, ...captcha }),
    staleTime: 0,
    retry: false,
    // A room that is not running yet is watched, and entered as soon as it runs.
    refetchInterval: (query) => {
      const answer = query.state.data;
      return answer && !answer.passwordRequired && answer.room.state !== 'running' ? 3000 : false;
    },
  });
  const room = entry.data && !entry.data.passwordRequired ? entry.data.room : undefined;
  const info = useQuery({
    ...trpc.room.getRoomInfo_share.queryOptions({ id, password }),
    // A knocker has no password to ask it with: the entry's own answer says enough.
    enabled: room !== undefined && !knock,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });

  const opened = room !== undefined;
  useEffect(() => {
    if (!opened) return;
    rememberSharePassword(id, password ?? null);
    if (knock) rememberKnockToken(id, knock);
    // The password has done its work: it leaves the address bar (and so the history) once the room opened.
    if (location.hash) history.replaceState(history.state, '', location.pathname + location.search);
  }, [opened, id, password, knock]);

  const code = entry.data?.passwordRequired ? 'ROOM_PASSWORD_REQUIRED' : appCodeOf(entry.error);
  if (code && PASSWORD_CODES.includes(code)) {
    return (
      <PasswordForm
        roomId={id}
        error={entry.isError ? describeError(i18n, entry.error).text : null}
        needsCaptcha={CAPTCHA_PASSWORD_CODES.includes(code)}
        pending={entry.isFetching}
        onSubmit={(typed, solved) => {
          setPassword(typed);
          setCaptcha(solved);
        }}
      />
    );
  }
  if (entry.isError) {
    return (
      <Notice title={<Trans>Failed to retrieve room information</Trans>} home={home}>
        {describeError(i18n, entry.error).text}
      </Notice>
    );
  }
  if (!room) {
    return <StandaloneLoading />;
  }
  if (room.state !== 'running') {
    return (
      <Notice
        title={room.name}
        home={home}
        action={
          <Button variant="secondary" onClick={() => entry.refetch()} data-testid="share-retry">
            <RefreshCwIcon />
            <Trans>Try again</Trans>
          </Button>
        }
      >
        <Trans>This room is not running. You will be let in as soon as its owner starts it.</Trans>
      </Notice>
    );
  }
  const owner = room.owner;
  const region = translateServerText(i18n, room.region.name);
  const inside = room.memberCount;
  return (
    <RoomExperience
      room={room}
      password={password}
      knock={knock}
      home={home}
      details={
        <span className="grid gap-1" data-testid="share-lobby">
          <span>
            <Trans>
              {owner} invites you to this room · {region} · {inside} inside
            </Trans>
          </span>
          {info.data?.remark ? <span>{info.data.remark}</span> : null}
        </span>
      }
      onLeave={() => void navigate({ to: home.to })}
    />
  );
}

function PasswordForm({
  roomId,
  error,
  needsCaptcha,
  pending,
  onSubmit,
}: {
  roomId: string;
  error: string | null;
  /** Several wrong passwords came from this network: each try goes with a solved captcha. */
  needsCaptcha: boolean;
  pending: boolean;
  onSubmit: (password: string, captcha: TCaptchaFields | undefined) => void;
}) {
  const { i18n, t } = useLingui();
  const id = useId();
  const [value, setValue] = useState('');
  const captcha = useCaptcha();
  // Whose room this is, so nobody types a password into a page that does not say where it leads; a room that is
  // not shared answers nothing, and the form asks as before.
  const invite = useQuery({
    ...trpc.room.getShareInvite.queryOptions({ id: roomId }),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  const room = invite.data?.name;
  const owner = invite.data?.owner;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!value) return;
    if (!needsCaptcha) return onSubmit(value, undefined);
    const fields = captcha.consume();
    if (!fields) return toastIssue(i18n, 'captcha-required');
    onSubmit(value, fields);
  }

  return (
    <StandalonePage>
      <Card className="mx-auto w-full max-w-md" data-testid="share-password">
        <form onSubmit={submit} noValidate className="grid gap-4">
          <CardHeader>
            <CardTitle className="flex min-w-0 items-center gap-2">
              <LockIcon className="size-4 shrink-0" />
              {room ? (
                <span className="wrap-anywhere" data-testid="share-invite-room">
                  {room}
                </span>
              ) : (
                <Trans>This room needs a password</Trans>
              )}
            </CardTitle>
            <CardDescription className="wrap-anywhere" data-testid="share-invite">
              {owner ? (
                <Trans>
                  <span data-testid="share-invite-owner">{owner}</span> invites you to this room. Enter the
                  password they gave you.
                </Trans>
              ) : (
                <Trans>Enter the password the room's owner gave you.</Trans>
              )}
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-2">
            <Label htmlFor={`${id}-password`}>
              <Trans>Room password</Trans>
            </Label>
            <Input
              id={`${id}-password`}
              type="password"
              autoFocus
              autoComplete="off"
              value={value}
              placeholder={t`Room password`}
              onChange={(event) => setValue(event.target.value)}
              aria-invalid={error ? true : undefined}
              data-testid="share-password-input"
            />
            {error ? (
              <p className="text-destructive text-sm" role="alert" data-testid="share-password-error">
                {error}
              </p>
            ) : null}
            {needsCaptcha ? <CaptchaWidget captcha={captcha} /> : null}
          </CardContent>
          <CardFooter className="justify-end">
            <Button
              type="submit"
              disabled={!value || pending || (needsCaptcha && !captcha.done)}
              data-testid="share-password-submit"
            >
              {pending ? <Spinner /> : null}
              <Trans>Continue</Trans>
            </Button>
          </CardFooter>
        </form>
      </Card>
    </StandalonePage>
  );
}
