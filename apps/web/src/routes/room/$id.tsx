// The room (spec §2, outside the layout): confirm, choose a nickname, then the live browser with its controls,
// the members and control queue, chat, fullscreen and the quality indicator.
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@rooms/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@rooms/ui/card';
import { cn } from '@rooms/ui/lib/utils';
import { Spinner } from '@rooms/ui/spinner';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { ArrowLeftIcon, MaximizeIcon, MinimizeIcon } from 'lucide-react';
import { type CSSProperties, type ReactNode, useEffect, useRef, useState } from 'react';
import { StandalonePage } from '../../components/standalone-page';
import { useRoomConnection } from '../../hooks/use-room-connection';
import { requireLogin } from '../../lib/guard';
import { describeError, translateServerText } from '../../lib/messages';
import { toastError } from '../../lib/notify';
import type { TRoomConfig } from '../../lib/room/room-types';
import { storedUser } from '../../lib/session';
import { trpc } from '../../lib/trpc';
import { BrowserBar } from './-components/browser-bar';
import { ChatPanel } from './-components/chat-panel';
import { MembersPanel } from './-components/members-panel';
import { EnterConfirmDialog, NicknameDialog } from './-components/room-entry';
import { RoomStage } from './-components/room-stage';

export const Route = createFileRoute('/room/$id')({
  beforeLoad: requireLogin,
  staticData: { title: msg`Room` },
  component: RoomPage,
});

const NICKNAME_KEY = 'rooms.nickname';

function Notice({ title, children }: { title: ReactNode; children?: ReactNode }) {
  return (
    <StandalonePage>
      <Card className="mx-auto w-full max-w-md" data-testid="room-notice">
        <CardHeader>
          <CardTitle>{title}</CardTitle>
          {children ? <CardDescription>{children}</CardDescription> : null}
        </CardHeader>
        <CardContent>
          <Button asChild variant="outline">
            <Link to="/dashboard">
              <ArrowLeftIcon />
              <Trans>Back to the dashboard</Trans>
            </Link>
          </Button>
        </CardContent>
      </Card>
    </StandalonePage>
  );
}

function RoomPage() {
  const { id } = Route.useParams();
  const { i18n, t } = useLingui();
  const navigate = useNavigate();
  const config = useQuery({ ...trpc.room.getRoomConfig.queryOptions({ id }), staleTime: 0 });
  const [step, setStep] = useState<'confirm' | 'nickname' | 'live'>('confirm');
  const [nickname, setNickname] = useState<string | null>(null);

  useEffect(() => {
    if (config.error) {
      const text = t`Failed to retrieve room configuration`;
      toastError(i18n, config.error, { prefix: text, unreachable: text });
    }
  }, [config.error, i18n, t]);

  const leave = () => void navigate({ to: '/dashboard' });

  if (config.isPending) {
    return (
      <StandalonePage>
        <div className="flex justify-center">
          <Spinner />
        </div>
      </StandalonePage>
    );
  }
  if (config.isError) {
    return (
      <Notice title={<Trans>Failed to retrieve room configuration</Trans>}>
        {describeError(i18n, config.error).text}
      </Notice>
    );
  }
  if (config.data.state !== 'running') {
    return (
      <Notice title={config.data.name}>
        <Trans>This room is not running. Its owner can start it from the dashboard.</Trans>
      </Notice>
    );
  }
  if (step === 'confirm') {
    return (
      <StandalonePage>
        <EnterConfirmDialog onEnter={() => setStep('nickname')} onLeave={leave} />
      </StandalonePage>
    );
  }
  if (step === 'nickname' || !nickname) {
    return (
      <StandalonePage>
        <NicknameDialog
          initial={localStorage.getItem(NICKNAME_KEY) ?? storedUser().username}
          onLeave={leave}
          onJoin={(chosen) => {
            localStorage.setItem(NICKNAME_KEY, chosen);
            setNickname(chosen);
            setStep('live');
          }}
        />
      </StandalonePage>
    );
  }
  return <LiveRoom room={config.data} nickname={nickname} />;
}

function LiveRoom({ room, nickname }: { room: TRoomConfig; nickname: string }) {
  const { i18n, t } = useLingui();
  const root = useRef<HTMLDivElement>(null);
  const { connection, snapshot, meter, player, canvas } = useRoomConnection(i18n, room.id, nickname);
  const [fullscreen, setFullscreen] = useState(false);
  const send = connection ? connection.send.bind(connection) : () => false;
  const controlling = snapshot.controllerId !== null && snapshot.controllerId === snapshot.you;
  const picture = snapshot.stream?.viewport ?? { width: room.width, height: room.height };

  useEffect(() => {
    const onChange = () => setFullscreen(document.fullscreenElement === root.current);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  const toggleFullscreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void root.current?.requestFullscreen().catch(() => undefined);
  };

  if (snapshot.ended) {
    return (
      <Notice title={room.name}>
        {translateServerText(i18n, snapshot.ended.message || 'The connection to the room was lost')}
      </Notice>
    );
  }

  return (
    <div
      ref={root}
      className="flex h-dvh flex-col bg-background"
      data-testid="room-page"
      data-status={snapshot.status}
      data-controlling={controlling}
    >
      <header className="flex h-12 shrink-0 items-center gap-2 border-b px-2 sm:px-3">
        <Button asChild variant="ghost" size="icon" className="size-8">
          <Link to="/dashboard" aria-label={t`Back to the dashboard`}>
            <ArrowLeftIcon />
          </Link>
        </Button>
        <h1 className="min-w-0 truncate font-semibold" data-testid="room-title">
          {room.name}
        </h1>
        <span
          className={cn(
            'shrink-0 rounded-full px-2 py-0.5 text-xs',
            snapshot.status === 'joined' ? 'bg-primary/15 text-primary' : 'bg-warning/20 text-warning',
          )}
          data-testid="room-status"
        >
          {snapshot.status === 'joined'
            ? controlling
              ? t`You are in control`
              : t`Watching`
            : snapshot.status === 'reconnecting'
              ? t`Reconnecting…`
              : t`Connecting…`}
        </span>
        <Button
          variant="ghost"
          size="icon"
          className="ml-auto size-8"
          onClick={toggleFullscreen}
          aria-label={fullscreen ? t`Exit fullscreen` : t`Fullscreen`}
          data-testid="room-fullscreen"
        >
          {fullscreen ? <MinimizeIcon /> : <MaximizeIcon />}
        </Button>
      </header>
      <BrowserBar tabs={snapshot.tabs} controlling={controlling} send={send} />
      <div className="flex min-h-0 flex-1 flex-col lg:flex-row">
        <div
          className="flex max-h-[60dvh] shrink-0 max-lg:aspect-(--picture-ratio) lg:max-h-none lg:min-w-0 lg:flex-1"
          style={{ '--picture-ratio': `${picture.width} / ${picture.height}` } as CSSProperties}
        >
          <RoomStage
            canvasRef={canvas}
            picture={picture}
            controlling={controlling}
            send={send}
            meter={meter}
            player={player}
            waiting={snapshot.status !== 'joined'}
          />
        </div>
        <aside className="flex min-h-0 flex-1 flex-col border-t lg:w-80 lg:flex-none lg:border-t-0 lg:border-l">
          <MembersPanel
            members={snapshot.members}
            you={snapshot.you}
            controllerId={snapshot.controllerId}
            queue={snapshot.queue}
            send={send}
          />
          <ChatPanel messages={snapshot.chat} you={snapshot.you} send={send} />
        </aside>
      </div>
    </div>
  );
}
