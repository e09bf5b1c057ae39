// The room experience every entrance shares (the room page, public rooms, shared links): the entry when needed
// (room-entry.tsx), then the live browser with its controls, the members and control queue, chat, fullscreen,
// the quality indicator and reporting, following the room through stops and restarts (room-away.tsx). Owner
// actions show only to the owner.
import type { MessageDescriptor } from '@lingui/core';
import { useLingui } from '@lingui/react/macro';
import { ROOM_ERROR_MESSAGES } from '@rooms/api/room-protocol';
import { Button } from '@rooms/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@rooms/ui/card';
import { cn } from '@rooms/ui/lib/utils';
import { Link } from '@tanstack/react-router';
import { ArrowLeftIcon, MaximizeIcon, MinimizeIcon } from 'lucide-react';
import { type CSSProperties, type ReactNode, useEffect, useRef, useState } from 'react';
import { StandalonePage } from '../../../components/standalone-page';
import { useControlNotices } from '../../../hooks/use-control-notices';
import { useRoomConnection } from '../../../hooks/use-room-connection';
import { useRoomFilesIn } from '../../../hooks/use-room-files-in';
import { useRoomFilesOut } from '../../../hooks/use-room-files-out';
import { translateServerText } from '../../../lib/messages';
import {
  enteredInThisTab,
  forgetNickname,
  rememberEntry,
  rememberedNickname,
  suggestedNickname,
} from '../../../lib/room/entry-memory';
import { findLayer } from '../../../lib/room/layer-choice';
import type { TRoomConfig } from '../../../lib/room/room-types';
import { storedUser } from '../../../lib/session';
import { BrowserBar } from './browser-bar';
import { ChatPanel } from './chat-panel';
import { FindBar } from './find-bar';
import { KnockRequests, KnockWaiting } from './knock-panel';
import { MembersPanel } from './members-panel';
import { PictureQualityMenu } from './picture-quality-menu';
import { PointingControls } from './pointing-controls';
import { PointingLayer, usePointerSharing, usePointingBoard } from './pointing-layer';
import { ReportRoomButton } from './report-room';
import { RoomAway } from './room-away';
import { EntryDialog } from './room-entry';
import { RoomStage } from './room-stage';
import { MemberVoice, useRoomVoice, VoiceControls } from './voice-controls';

/** Where leaving the room goes: the dashboard for members, the site's home for guests of a shared link. */
export interface TRoomHome {
  to: '/dashboard' | '/publicrooms' | '/';
  label: MessageDescriptor;
}

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

/**
 * The entry when it is needed, then the live room. The owner goes straight in; anyone else is asked for a nickname
 * (prefilled, remembered per room) and, with others inside, to confirm; a reload of this tab asks nothing again.
 * `password` is the share password a guest entered with; `knock` the knock link's token of someone who knocks.
 */
export function RoomExperience({
  room,
  password,
  knock,
  home,
  details,
  onLeave,
}: {
  room: TRoomConfig;
  password?: string | undefined;
  knock?: string | undefined;
  home: TRoomHome;
  /** More about the room for the entry (who invites, the zone, the remark), on a shared link. */
  details?: ReactNode;
  onLeave: () => void;
}) {
  const account = storedUser().username;
  const [nickname, setNickname] = useState<string | null>(() => nicknameWithoutAsking(room, account));
  const [refusal, setRefusal] = useState<string | undefined>();

  if (!nickname) {
    return (
      <StandalonePage>
        <EntryDialog
          roomName={room.name}
          othersInside={room.memberCount}
          details={details}
          initial={suggestedNickname(room.id, account)}
          refusal={refusal}
          onLeave={onLeave}
          onJoin={setNickname}
        />
      </StandalonePage>
    );
  }
  return (
    <LiveRoom
      room={room}
      nickname={nickname}
      password={password}
      knock={knock}
      home={home}
      onNicknameRefused={(reason) => {
        forgetNickname(room.id);
        setRefusal(reason);
        setNickname(null);
      }}
    />
  );
}

/** The nickname to enter with at once, or null when the entry must ask. */
function nicknameWithoutAsking(room: TRoomConfig, account: string): string | null {
  const remembered = rememberedNickname(room.id);
  if (room.isOwner) return remembered ?? (account || null);
  if (!remembered) return null;
  return room.memberCount === 0 || enteredInThisTab(room.id) ? remembered : null;
}

function LiveRoom({
  room,
  nickname,
  password,
  knock,
  home,
  onNicknameRefused,
}: {
  room: TRoomConfig;
  nickname: string;
  password: string | undefined;
  knock: string | undefined;
  home: TRoomHome;
  /** Back to the entry with the room's reason, when it refused this nickname. */
  onNicknameRefused: (reason: string) => void;
}) {
  const { i18n, t } = useLingui();
  const stageBox = useRef<HTMLDivElement>(null);
  const { connection, snapshot, meter, player, canvas } = useRoomConnection(i18n, room.id, nickname, {
    password,
    knock,
  });
  const [fullscreen, setFullscreen] = useState(false);
  const [finding, setFinding] = useState(false);
  const send = connection ? connection.send.bind(connection) : () => false;
  useRoomFilesOut(connection);
  const controlling = snapshot.controllerId !== null && snapshot.controllerId === snapshot.you;
  useRoomFilesIn(connection, canvas, controlling);
  useControlNotices({
    members: snapshot.members,
    you: snapshot.you,
    controllerId: snapshot.controllerId,
    change: snapshot.controlChange,
  });
  const picture = snapshot.stream?.viewport ?? { width: room.width, height: room.height };
  const layer = findLayer(snapshot.stream?.layers ?? [], snapshot.layer?.layer) ?? null;
  // Whoever drives sees their input at once; watchers get picture and sound in step (lib/room/av-sync.ts).
  useEffect(() => player?.setDriving(controlling), [player, controlling]);

  // Entered: this tab asks nothing again on a reload, and the nickname is this room's from now on.
  const joined = snapshot.status === 'joined';
  useEffect(() => {
    if (joined) rememberEntry(room.id, nickname);
  }, [joined, room.id, nickname]);

  const ended = snapshot.ended;
  const nicknameRefused = ended?.code === 'NICKNAME_RESERVED' || ended?.code === 'NICKNAME_TAKEN';
  useEffect(() => {
    if (ended && nicknameRefused) onNicknameRefused(translateServerText(i18n, ended.message));
  }, [ended, nicknameRefused, onNicknameRefused, i18n]);

  // Fullscreen shows the picture alone, as large as the screen allows (the stage keeps its aspect ratio).
  useEffect(() => {
    const onChange = () => setFullscreen(document.fullscreenElement === stageBox.current);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  // Pointing is for watchers: whoever drives points with the browser's own mouse.
  const [pointing, setPointing] = useState(false);
  const sharingPointer = pointing && !controlling && joined;
  const you = snapshot.members.find((member) => member.id === snapshot.you);
  const reactions = usePointingBoard(
    connection,
    snapshot.members.map((member) => member.id),
    send,
  );
  usePointerSharing(canvas, sharingPointer, send);
  const { session: voiceSession, voice } = useRoomVoice(connection, player);
  const isOwner = you?.isOwner ?? false;

  const toggleFullscreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void stageBox.current?.requestFullscreen().catch(() => undefined);
  };

  if (ended) {
    if (nicknameRefused) return null;
    // The owner hears of their own account, whichever of the two closes reached this page first.
    const message =
      ended.code === 'OWNER_DISABLED' && room.isOwner
        ? ROOM_ERROR_MESSAGES.ACCOUNT_DISABLED
        : ended.message || 'The connection to the room was lost';
    return (
      <Notice title={room.name} home={home}>
        <span data-testid="room-notice-text" data-code={ended.code}>
          {translateServerText(i18n, message)}
        </span>
      </Notice>
    );
  }

  if (snapshot.knock.waiting && !joined) {
    return (
      <KnockWaiting
        roomName={room.name}
        action={
          <Button asChild variant="secondary">
            <Link to={home.to}>{i18n._(home.label)}</Link>
          </Button>
        }
      />
    );
  }

  return (
    <div
      className="flex h-dvh flex-col bg-background"
      data-testid="room-page"
      // Toasts keep clear of the room's controls (styles.css).
      data-toasts="room"
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
              : snapshot.status === 'waiting'
                ? snapshot.away?.reason === 'restarting' || snapshot.away?.reason === 'server-restart'
                  ? t`Restarting…`
                  : t`Not running`
                : t`Connecting…`}
        </span>
        <ReportRoomButton roomId={room.id} password={password} className="ml-auto" />
        <PointingControls
          pointing={pointing}
          controlling={controlling}
          joined={joined}
          onPointingChange={setPointing}
          onReact={(emoji) => reactions.react(emoji, you?.nickname ?? nickname)}
        />
        <PictureQualityMenu
          stream={snapshot.stream}
          layer={snapshot.layer?.layer ?? null}
          choice={snapshot.choice}
          onChoose={(choice) => connection?.choose(choice)}
        />
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
          ref={stageBox}
          className={cn(
            'relative flex max-h-[60dvh] shrink-0 max-lg:aspect-(--picture-ratio) lg:max-h-none lg:min-w-0 lg:flex-1',
            fullscreen && 'bg-black',
          )}
          style={{ '--picture-ratio': `${picture.width} / ${picture.height}` } as CSSProperties}
          data-testid="room-stage-box"
          onKeyDownCapture={(event) => {
            // Ctrl/⌘+F and F3 open the room's find bar instead of reaching the room browser (which drops them).
            const findKey =
              ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'f') || event.key === 'F3';
            if (!controlling || !findKey || finding) return;
            event.preventDefault();
            event.stopPropagation();
            setFinding(true);
          }}
        >
          <RoomStage
            canvasRef={canvas}
            picture={picture}
            controlling={controlling}
            send={send}
            meter={meter}
            player={player}
            waiting={snapshot.status === 'connecting'}
            layer={layer}
            automatic={snapshot.choice === 'auto'}
            // The first connection is not a lost one: only reconnecting or a room gone away count.
            connected={snapshot.status === 'joined' || snapshot.status === 'connecting'}
            pointing={sharingPointer}
            overlay={<PointingLayer board={reactions.board} announced={reactions.announced} />}
          />
          <RoomAway
            status={snapshot.status}
            away={snapshot.away}
            retryAt={snapshot.retryAt}
            roomId={room.id}
            isOwner={room.isOwner}
            onRetry={() => connection?.retryNow()}
          />
          {finding && controlling ? (
            <FindBar found={snapshot.found} send={send} onClose={() => setFinding(false)} />
          ) : null}
          {fullscreen ? (
            <Button
              variant="secondary"
              size="icon"
              className="absolute top-2 left-2 z-20 size-8 opacity-60 hover:opacity-100"
              onClick={toggleFullscreen}
              aria-label={t`Exit fullscreen`}
              data-testid="room-exit-fullscreen"
            >
              <MinimizeIcon />
            </Button>
          ) : null}
        </div>
        <aside className="flex min-h-0 flex-1 flex-col border-t lg:w-80 lg:flex-none lg:border-t-0 lg:border-l">
          <KnockRequests knock={snapshot.knock} members={snapshot.members} you={snapshot.you} send={send} />
          <VoiceControls
            session={voiceSession}
            voice={voice}
            you={snapshot.you}
            isOwner={isOwner}
            joined={joined}
          />
          <MembersPanel
            members={snapshot.members}
            removed={snapshot.removed}
            you={snapshot.you}
            controllerId={snapshot.controllerId}
            queue={snapshot.queue}
            send={send}
            voice={(person) => (
              <MemberVoice person={person} session={voiceSession} voice={voice} isOwner={isOwner} />
            )}
          />
          <ChatPanel messages={snapshot.chat} you={snapshot.you} send={send} connected={joined} />
        </aside>
      </div>
    </div>
  );
}
