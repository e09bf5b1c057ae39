// Voice above the room's member list and in it: a push-to-talk button (hold it, or hold V outside text fields and
// the picture), a menu with the open mic, lowering the room's sound while someone talks, and for the owner voice on
// or off for everyone; in each member's row, who is talking, mute for me, and for the owner mute for everyone.
import { useLingui } from '@lingui/react/macro';
import { Button } from '@rooms/ui/button';
import { Checkbox } from '@rooms/ui/checkbox';
import { Label } from '@rooms/ui/label';
import { cn } from '@rooms/ui/lib/utils';
import { Popover, PopoverContent, PopoverTrigger } from '@rooms/ui/popover';
import { ChevronDownIcon, MicIcon, MicOffIcon, Volume2Icon, VolumeXIcon } from 'lucide-react';
import { useEffect, useId, useRef, useState, useSyncExternalStore } from 'react';
import type { TPerson } from '../../../lib/room/people';
import type { RoomConnection } from '../../../lib/room/room-connection';
import type { RoomPlayer } from '../../../lib/room/room-player';
import { type TVoiceSnapshot, VoiceSession } from '../../../lib/room/voice-session';

/** The key held to talk, outside text fields and the picture (where keys are the room browser's). */
const TALK_KEY = 'v';

/** The page's voice session for this connection, and its state for React. */
export function useRoomVoice(connection: RoomConnection | null, player: RoomPlayer | null) {
  const [session, setSession] = useState<VoiceSession | null>(null);
  useEffect(() => {
    if (!connection) return;
    const next = new VoiceSession(connection, () => player?.sound ?? null);
    setSession(next);
    return () => next.close();
  }, [connection, player]);
  const snapshot = useSyncExternalStore(session?.subscribe ?? noSubscribe, session?.getSnapshot ?? idle);
  // Hold V to talk, when the key would not type or reach the room's browser.
  useEffect(() => {
    if (!session) return;
    const talkKey = (event: KeyboardEvent) =>
      event.key.toLowerCase() === TALK_KEY &&
      !event.ctrlKey &&
      !event.metaKey &&
      !event.altKey &&
      !isTypingTarget(event.target);
    const down = (event: KeyboardEvent) => {
      if (!talkKey(event)) return;
      event.preventDefault();
      if (!event.repeat) session.push(true);
    };
    const up = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() === TALK_KEY) session.push(false);
    };
    const blur = () => session.push(false);
    window.addEventListener('keydown', down);
    window.addEventListener('keyup', up);
    window.addEventListener('blur', blur);
    return () => {
      window.removeEventListener('keydown', down);
      window.removeEventListener('keyup', up);
      window.removeEventListener('blur', blur);
    };
  }, [session]);
  return { session, voice: snapshot };
}

function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement ||
    target instanceof HTMLCanvasElement
  );
}

export function VoiceControls({
  session,
  voice,
  you,
  isOwner,
  joined,
}: {
  session: VoiceSession | null;
  voice: TVoiceSnapshot;
  you: string | null;
  isOwner: boolean;
  joined: boolean;
}) {
  const { t } = useLingui();
  const openMicId = useId();
  const duckId = useId();
  const enabledId = useId();
  const mutedByOwner = you !== null && voice.room.muted.includes(you);
  const blocked = !voice.room.enabled || mutedByOwner;
  const label = !voice.room.enabled
    ? t`Voice is turned off in this room`
    : mutedByOwner
      ? t`The room owner muted you`
      : voice.mic === 'denied'
        ? t`The browser did not allow the microphone`
        : voice.mic === 'unsupported'
          ? t`This browser cannot send your voice`
          : t`Hold to talk (or hold V)`;
  const short = blocked ? (voice.room.enabled ? t`Muted` : t`Voice off`) : t`Hold to talk`;
  const release = () => session?.push(false);
  // The loudest of others' voices heard over the last second or so, as data-heard (what journeys read).
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!session) return;
    let peak = 0;
    const timer = setInterval(() => {
      peak = Math.max(session.heardLevel(), peak * 0.9);
      if (box.current) box.current.dataset.heard = peak.toFixed(4);
    }, 100);
    return () => clearInterval(timer);
  }, [session]);
  return (
    <section
      ref={box}
      className="flex min-w-0 items-center gap-2 border-b px-3 py-2"
      aria-label={t`Voice`}
      data-testid="voice-controls"
      data-heard="0"
    >
      <Button
        variant="outline"
        size="sm"
        className={cn(
          'min-w-0 flex-1 select-none',
          voice.talking && 'border-primary bg-primary/15 text-primary',
        )}
        aria-pressed={voice.pushing}
        aria-label={label}
        title={label}
        disabled={!joined || blocked || !session}
        onPointerDown={(event) => {
          event.currentTarget.setPointerCapture?.(event.pointerId);
          session?.push(true);
        }}
        onPointerUp={release}
        onPointerCancel={release}
        onLostPointerCapture={release}
        onKeyDown={(event) => {
          if ((event.key === ' ' || event.key === 'Enter') && !event.repeat) session?.push(true);
        }}
        onKeyUp={(event) => {
          if (event.key === ' ' || event.key === 'Enter') release();
        }}
        data-testid="voice-talk"
        data-talking={voice.talking}
        data-mic={voice.mic}
      >
        {blocked || voice.mic === 'denied' ? <MicOffIcon /> : <MicIcon />}
        <span className="truncate">{voice.talking ? t`Talking…` : short}</span>
      </Button>
      <Popover>
        <PopoverTrigger asChild>
          <Button
            variant="ghost"
            size="icon"
            className="size-8"
            aria-label={t`Voice settings`}
            title={t`Voice settings`}
            disabled={!session}
            data-testid="voice-settings"
          >
            <ChevronDownIcon />
          </Button>
        </PopoverTrigger>
        <PopoverContent align="end" className="grid w-72 gap-3 text-sm" aria-label={t`Voice settings`}>
          <div className="flex items-center gap-2">
            <Checkbox
              id={openMicId}
              checked={voice.openMic}
              disabled={blocked}
              onCheckedChange={(checked) => session?.setOpenMic(checked === true)}
              data-testid="voice-open-mic"
            />
            <Label htmlFor={openMicId}>{t`Open mic: talk without holding the button`}</Label>
          </div>
          <div className="flex items-center gap-2">
            <Checkbox
              id={duckId}
              checked={voice.duck}
              onCheckedChange={(checked) => session?.setDuck(checked === true)}
              data-testid="voice-duck"
            />
            <Label htmlFor={duckId}>{t`Lower the room's sound while someone talks`}</Label>
          </div>
          {isOwner ? (
            <div className="flex items-center gap-2 border-t pt-3">
              <Checkbox
                id={enabledId}
                checked={voice.room.enabled}
                onCheckedChange={(checked) => session?.setEnabled(checked === true)}
                data-testid="voice-enabled"
              />
              <Label htmlFor={enabledId}>{t`Voice on for everyone in this room`}</Label>
            </div>
          ) : null}
        </PopoverContent>
      </Popover>
    </section>
  );
}

/** In a member's row: talking now, mute for me, and for the owner mute for everyone. */
export function MemberVoice({
  person,
  session,
  voice,
  isOwner,
}: {
  person: TPerson;
  session: VoiceSession | null;
  voice: TVoiceSnapshot;
  isOwner: boolean;
}) {
  const { t } = useLingui();
  const seats = person.seats.map((seat) => seat.id);
  const speaking = seats.some((id) => voice.room.speaking.includes(id));
  const mutedForAll = seats.some((id) => voice.room.muted.includes(id));
  const mutedForMe = seats.every((id) => voice.mutedForMe.includes(id));
  const name = person.nickname;
  return (
    <span className="flex shrink-0 items-center" data-testid="member-voice" data-speaking={speaking}>
      {speaking ? (
        <MicIcon
          className="size-3.5 animate-pulse text-primary"
          aria-label={t`${name} is talking`}
          role="img"
        />
      ) : null}
      {mutedForAll ? (
        <MicOffIcon className="size-3.5 text-destructive" aria-label={t`Muted by the owner`} role="img" />
      ) : null}
      {person.isYou ? null : (
        <Button
          variant="ghost"
          size="icon"
          className="size-6"
          aria-pressed={mutedForMe}
          aria-label={mutedForMe ? t`Hear ${name} again` : t`Mute ${name} for me`}
          title={mutedForMe ? t`Hear ${name} again` : t`Mute ${name} for me`}
          onClick={() => {
            for (const id of seats) session?.setMutedForMe(id, !mutedForMe);
          }}
          data-testid="member-mute-for-me"
        >
          {mutedForMe ? <VolumeXIcon /> : <Volume2Icon />}
        </Button>
      )}
      {isOwner && !person.isOwner ? (
        <Button
          variant="ghost"
          size="icon"
          className="size-6"
          aria-pressed={mutedForAll}
          aria-label={mutedForAll ? t`Let ${name} talk again` : t`Mute ${name} for everyone`}
          title={mutedForAll ? t`Let ${name} talk again` : t`Mute ${name} for everyone`}
          onClick={() => {
            const seat = person.seats[0];
            if (seat) session?.muteForEveryone(seat.id, !mutedForAll);
          }}
          data-testid="member-mute-for-all"
        >
          {mutedForAll ? <MicOffIcon /> : <MicIcon />}
        </Button>
      ) : null}
    </span>
  );
}

const IDLE: TVoiceSnapshot = {
  room: { enabled: true, speaking: [], muted: [] },
  pushing: false,
  openMic: false,
  talking: false,
  mic: 'off',
  mutedForMe: [],
  duck: true,
};
const idle = () => IDLE;
const noSubscribe = () => () => undefined;
