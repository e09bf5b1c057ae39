// The room's sound controls over the picture: mute, volume and a level meter once the room sends sound, and the
// one click the browser's autoplay rule asks for before a page may make a sound.
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@rooms/ui/button';
import { cn } from '@rooms/ui/lib/utils';
import { Volume1Icon, Volume2Icon, VolumeXIcon } from 'lucide-react';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import type { RoomPlayer, TPlayerSnapshot } from '../../../lib/room/room-player';

const LEVEL_EVERY_MS = 100;

export function usePlayerSnapshot(player: RoomPlayer | null): TPlayerSnapshot | null {
  return useSyncExternalStore(player?.subscribe ?? noSubscribe, player?.getSnapshot ?? noSnapshot);
}

export function SoundControls({ player }: { player: RoomPlayer | null }) {
  const { t } = useLingui();
  const snapshot = usePlayerSnapshot(player);
  const sound = snapshot?.sound;
  if (!player || !sound || sound.status === 'off' || sound.status === 'failed') return null;
  const silent = sound.muted || sound.volume === 0;
  const Icon = silent ? VolumeXIcon : sound.volume < 0.5 ? Volume1Icon : Volume2Icon;

  if (sound.status === 'blocked') {
    return (
      <div className="absolute inset-x-0 bottom-3 flex justify-center">
        <Button
          size="sm"
          className="shadow-lg"
          onClick={() => player.sound.unmute()}
          data-testid="room-unmute"
        >
          <VolumeXIcon />
          <Trans>Click to turn the sound on</Trans>
        </Button>
      </div>
    );
  }

  return (
    <div
      className="group absolute bottom-2 left-2 flex items-center gap-1 rounded-md bg-black/60 px-1 py-0.5 text-white"
      data-testid="room-sound"
      data-status={sound.status}
      data-muted={silent}
    >
      <Button
        variant="ghost"
        size="icon"
        className="size-7 text-white hover:bg-white/15 hover:text-white"
        onClick={() => player.sound.setMuted(!sound.muted)}
        aria-label={silent ? t`Unmute` : t`Mute`}
        aria-pressed={silent}
        data-testid="room-mute"
      >
        <Icon />
      </Button>
      <input
        type="range"
        min={0}
        max={100}
        step={1}
        value={Math.round((sound.muted ? 0 : sound.volume) * 100)}
        onChange={(event) => player.sound.setVolume(Number(event.target.value) / 100)}
        aria-label={t`Volume`}
        className="h-1 w-20 cursor-pointer accent-primary"
        data-testid="room-volume"
      />
      <LevelMeter player={player} />
    </div>
  );
}

/** A small bar that follows the loudness reaching the speakers; its data-level (RMS, 0..1) is what tests read. */
function LevelMeter({ player }: { player: RoomPlayer }) {
  const bar = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let peak = 0;
    const timer = setInterval(() => {
      const level = player.sound.level();
      peak = Math.max(level, peak * 0.8);
      const element = bar.current;
      if (!element) return;
      element.dataset.level = level.toFixed(4);
      element.style.setProperty('--level', `${Math.min(100, Math.round(Math.sqrt(peak) * 140))}%`);
    }, LEVEL_EVERY_MS);
    return () => clearInterval(timer);
  }, [player]);
  return (
    <div className="mx-1 h-1.5 w-8 overflow-hidden rounded-full bg-white/20" aria-hidden>
      <div
        ref={bar}
        className={cn('h-full w-(--level) bg-emerald-400 transition-[width] duration-100')}
        data-testid="room-sound-level"
        data-level="0"
      />
    </div>
  );
}

const noSubscribe = () => () => {};
const noSnapshot = () => null;
