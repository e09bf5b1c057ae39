// The room experience every entrance shares (the room page, public rooms, shared links): confirm that entering
// may disturb the others, choose a nickname, then the live browser with its controls, the members and control
// queue, chat, fullscreen, the quality indicator and reporting. Owner actions show only to the owner.
import type { MessageDescriptor } from '@lingui/core';
import { useLingui } from '@lingui/react/macro';
import { Button } from '@rooms/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@rooms/ui/card';
import { cn } from '@rooms/ui/lib/utils';
import { Link } from '@tanstack/react-router';
import { ArrowLeftIcon, MaximizeIcon, MinimizeIcon } from 'lucide-react';
import { type CSSProperties, type ReactNode, useEffect, useRef, useState } from 'react';
import { StandalonePage } from '../../../components/standalone-page';
import { useRoomConnection } from '../../../hooks/use-room-connection';
import { translateServerText } from '../../../lib/messages';
import type { TRoomConfig } from '../../../lib/room/room-types';
import { storedUser } from '../../../lib/session';
import { BrowserBar } from './browser-bar';
import { ChatPanel } from './chat-panel';
import { MembersPanel } from './members-panel';
import { ReportRoomButton } from './report-room';
import { EnterConfirmDialog, NicknameDialog } from './room-entry';
import { RoomStage } from './room-stage';

/** Where leaving the room goes: the dashboard for members, the site's home for guests of a shared link. */
export interface TRoomHome {
  to: '/dashboard' | '/publicrooms' | '/';
  label: MessageDescriptor;
}

const NICKNAME_KEY = 'rooms.nickname';

export function Notice({
  title,
  children,
  home,
  action,
}: {
  title: ReactNode;
  children?: ReactNode;
  home: TRoomHome;
  action?: ReactNode;
}) {
  const { i18n } = useLingui();
  return (
    <StandalonePage>
      <Card className="mx-auto w-full max-w-md" data-testid="room-notice">
        <CardHeader>
          <CardTitle>{title}</CardTitle>
          {children ? <CardDescription>{children}</CardDescription> : null}
        </CardHeader>
        <CardContent className="flex flex-wrap gap-2">
          <Button asChild variant="outline">
            <Link to={home.to}>
              <ArrowLeftIcon />
              {i18n._(home.label)}
            </Link>
          </Button>
          {action}
        </CardContent>
      </Card>
    </StandalonePage>
  );
}

/** Confirm, nickname, then the live room; `password` is the share password a guest entered with. */
export function RoomExperience({
  room,
  password,
  home,
  onLeave,
}: {
  room: TRoomConfig;
  password?: string | undefined;
  home: TRoomHome;
  onLeave: () => void;
}) {
  const [step, setStep] = useState<'confirm' | 'nickname' | 'live'>('confirm');
  const [nickname, setNickname] = useState<string | null>(null);

  if (step === 'confirm') {
    return (
      <StandalonePage>
        <EnterConfirmDialog onEnter={() => setStep('nickname')} onLeave={onLeave} />
      </StandalonePage>
    );
  }
  if (step === 'nickname' || !nickname) {
    return (
      <StandalonePage>
        <NicknameDialog
          initial={localStorage.getItem(NICKNAME_KEY) ?? storedUser().username}
          onLeave={onLeave}
          onJoin={(chosen) => {
            localStorage.setItem(NICKNAME_KEY, chosen);
            setNickname(chosen);
            setStep('live');
          }}
        />
      </StandalonePage>
    );
  }
  return (
    <LiveRoom
      room={room}
      nickname={nickname}
      password={password}
      home={home}
      onChooseNickname={() => setStep('nickname')}
    />
  );
}

function LiveRoom({
  room,
  nickname,
  password,
  home,
  onChooseNickname,
}: {
  room: TRoomConfig;
  nickname: string;
  password: string | undefined;
  home: TRoomHome;
  /** Back to the nickname step, when the room refused this one. */
  onChooseNickname: () => void;
}) {
  const { i18n, t } = useLingui();
  const root = useRef<HTMLDivElement>(null);
  const { connection, snapshot, meter, player, canvas } = useRoomConnection(i18n, room.id, nickname, {
    password,
  });
  const [fullscreen, setFullscreen] = useState(false);
  const send = connection ? connection.send.bind(connection) : () => false;
  const controlling = snapshot.controllerId !== null && snapshot.controllerId === snapshot.you;
  const picture = snapshot.stream?.viewport ?? { width: room.width, height: room.height };
  // Whoever drives sees their input at once; watchers get picture and sound in step (lib/room/av-sync.ts).
  useEffect(() => player?.setDriving(controlling), [player, controlling]);

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
    const { code } = snapshot.ended;
    return (
      <Notice
        title={room.name}
        home={home}
        action={
          code === 'NICKNAME_RESERVED' || code === 'NICKNAME_TAKEN' ? (
            <Button onClick={onChooseNickname} data-testid="room-choose-nickname">
              {t`Choose another nickname`}
            </Button>
          ) : undefined
        }
      >
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
          <Link to={home.to} aria-label={i18n._(home.label)}>
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
        <ReportRoomButton roomId={room.id} password={password} className="ml-auto" />
        <Button
          variant="ghost"
          size="icon"
          className="size-8"
          onClick={toggleFullscreen}
          aria-label={fullscreen ? t`Exit fullscreen` : t`Fullscreen`}
          data-testid="room-fullscreen"
        >
          {fullscreen ? <MinimizeIcon /> : <MaximizeIcon />}
        </Button>
      </header>
      <BrowserBar
        tabs={snapshot.tabs}
        controlling={controlling}
        isOwner={snapshot.members.some((member) => member.id === snapshot.you && member.isOwner)}
        send={send}
      />
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
