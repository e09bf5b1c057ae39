// The picture's path (H.264 stream or screencast fallback), fps, picture latency and bitrate over the last
// second, refreshed twice a second, for every viewer; with sound, the measured offset between picture and sound.
import { useLingui } from '@lingui/react/macro';
import { cn } from '@rooms/ui/lib/utils';
import { ActivityIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { formatBitrate, type QualityMeter, type TQuality } from '../../../lib/room/quality-meter';
import type { RoomPlayer } from '../../../lib/room/room-player';
import { usePlayerSnapshot } from './sound-controls';

export function QualityIndicator({ meter, player }: { meter: QualityMeter; player?: RoomPlayer | null }) {
  const { t } = useLingui();
  const [quality, setQuality] = useState<TQuality>(() => meter.read(performance.now()));
  const playing = usePlayerSnapshot(player ?? null);
  useEffect(() => {
    const timer = setInterval(() => setQuality(meter.read(performance.now())), 500);
    return () => clearInterval(timer);
  }, [meter]);
  const latency = quality.latencyMs === null ? '—' : `${Math.round(quality.latencyMs)} ms`;
  const level =
    quality.fps === 0 ? 'bad' : quality.latencyMs !== null && quality.latencyMs > 400 ? 'poor' : 'good';
  const path = playing?.path ?? null;
  const offset = playing?.avOffsetMs ?? null;
  const sounding = playing?.sound.status === 'playing';
  return (
    <div
      className="pointer-events-none absolute top-2 right-2 flex items-center gap-2 rounded-md bg-black/60 px-2 py-1 font-mono text-[11px] text-white tabular-nums"
      data-testid="quality-indicator"
      data-fps={quality.fps}
      data-path={path ?? ''}
      data-av-offset={offset ?? ''}
      data-av-raw-offset={playing?.rawOffsetMs ?? ''}
      data-sound-delay={playing?.soundDelayMs ?? 0}
      title={t`Picture quality`}
    >
      <ActivityIcon
        className={cn(
          'size-3.5',
          level === 'good' ? 'text-emerald-400' : level === 'poor' ? 'text-amber-400' : 'text-red-400',
        )}
      />
      {path ? <span data-testid="quality-path">{path === 'h264' ? 'H.264' : t`Screencast`}</span> : null}
      <span>{t`${quality.fps} fps`}</span>
      <span>{t`latency ${latency}`}</span>
      <span>{formatBitrate(quality.bitrate)}</span>
      {sounding && offset !== null ? <span>{t`A/V ${offset} ms`}</span> : null}
    </div>
  );
}
