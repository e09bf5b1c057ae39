// A room shared by link (spec §2, §6), open without an account: the room password when it has one (or the one the
// link carries in its fragment), then the same entry as the room page (the 'may disturb' confirmation, the
// nickname) and the same room. A guest joins with a guest ticket; someone logged in joins as themselves.
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@rooms/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@rooms/ui/card';
import { Input } from '@rooms/ui/input';
import { Label } from '@rooms/ui/label';
import { Spinner } from '@rooms/ui/spinner';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { LockIcon, RefreshCwIcon } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { passwordFromHash } from '../../../components/layout/share-links';
import { StandaloneLoading, StandalonePage } from '../../../components/standalone-page';
import { describeError } from '../../../lib/messages';
import { isLoggedIn } from '../../../lib/session';
import { appCodeOf, trpc } from '../../../lib/trpc';
import { Notice, RoomExperience, type TRoomHome } from '../../room/-components/room-experience';

export const Route = createFileRoute('/share/room/$id')({
  staticData: { title: msg`Shared room` },
  component: SharedRoomPage,
});

/** Answers that mean "ask for the password (again)"; anything else ends on a notice. */
const PASSWORD_CODES = ['ROOM_PASSWORD_REQUIRED', 'ROOM_PASSWORD_INCORRECT', 'TOO_MANY_REQUESTS'];

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
  const [password, setPassword] = useState<string | undefined>(
    () => passwordFromHash(typeof location === 'undefined' ? '' : location.hash) ?? undefined,
  );
  const [entering, setEntering] = useState(false);

  const info = useQuery({
    ...trpc.room.getRoomInfo_share.queryOptions({ id, password }),
    staleTime: 0,
    retry: false,
  });
  const config = useQuery({
    ...trpc.room.getPublicRoomConfig.queryOptions({ id, password }),
    enabled: entering,
    staleTime: 0,
    retry: false,
  });

  const code = appCodeOf(info.error);
  if (info.isError && code && PASSWORD_CODES.includes(code)) {
    return (
      <PasswordForm
        error={code === 'ROOM_PASSWORD_REQUIRED' ? null : describeError(i18n, info.error).text}
        pending={info.isFetching}
        onSubmit={setPassword}
      />
    );
  }
  if (info.isPending || (entering && config.isPending)) {
    return <StandaloneLoading />;
  }
  const failure = info.error ?? config.error;
  if (failure) {
    return (
      <Notice title={<Trans>Failed to retrieve room information</Trans>} home={home}>
        {describeError(i18n, failure).text}
      </Notice>
    );
  }
  const room = info.data;
  if (!room) return null;
  if (room.state !== 'running') {
    return (
      <Notice
        title={room.name}
        home={home}
        action={
          <Button variant="secondary" onClick={() => info.refetch()} data-testid="share-retry">
            <RefreshCwIcon />
            <Trans>Try again</Trans>
          </Button>
        }
      >
        <Trans>This room is not running. Please try again once its owner has started it.</Trans>
      </Notice>
    );
  }
  if (!entering || !config.data) {
    return (
      <StandalonePage>
        <Card className="mx-auto w-full max-w-md" data-testid="share-lobby">
          <CardHeader>
            <CardTitle data-testid="share-room-name">{room.name}</CardTitle>
            <CardDescription>
              <Trans>
                {room.owner} invites you to this room · {room.region.name} · {room.memberCount} inside
              </Trans>
            </CardDescription>
          </CardHeader>
          {room.remark ? (
            <CardContent>
              <p className="text-muted-foreground text-sm">{room.remark}</p>
            </CardContent>
          ) : null}
          <CardFooter className="justify-end">
            <Button onClick={() => setEntering(true)} data-testid="share-enter">
              <Trans>Enter the room</Trans>
            </Button>
          </CardFooter>
        </Card>
      </StandalonePage>
    );
  }
  return (
    <RoomExperience
      room={config.data}
      password={password}
      home={home}
      onLeave={() => {
        setEntering(false);
        void navigate({ to: '/share/room/$id', params: { id }, hash: location.hash.slice(1) });
      }}
    />
  );
}

function PasswordForm({
  error,
  pending,
  onSubmit,
}: {
  error: string | null;
  pending: boolean;
  onSubmit: (password: string) => void;
}) {
  const { t } = useLingui();
  const id = useId();
  const [value, setValue] = useState('');

  function submit(event: FormEvent) {
    event.preventDefault();
    if (value) onSubmit(value);
  }

  return (
    <StandalonePage>
      <Card className="mx-auto w-full max-w-md" data-testid="share-password">
        <form onSubmit={submit} noValidate className="grid gap-4">
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <LockIcon className="size-4" />
              <Trans>This room needs a password</Trans>
            </CardTitle>
            <CardDescription>
              <Trans>Enter the password the room's owner gave you.</Trans>
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
          </CardContent>
          <CardFooter className="justify-end">
            <Button type="submit" disabled={!value || pending} data-testid="share-password-submit">
              {pending ? <Spinner /> : null}
              <Trans>Continue</Trans>
            </Button>
          </CardFooter>
        </form>
      </Card>
    </StandalonePage>
  );
}
