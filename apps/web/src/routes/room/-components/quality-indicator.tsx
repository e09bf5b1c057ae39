// fps, picture latency and bitrate over the last second, refreshed twice a second, for every viewer.
import { useLingui } from '@lingui/react/macro';
import { cn } from '@rooms/ui/lib/utils';
import { ActivityIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { formatBitrate, type QualityMeter, type TQuality } from '../../../lib/room/quality-meter';

export function QualityIndicator({ meter }: { meter: QualityMeter }) {
  const { t } = useLingui();
  const [quality, setQuality] = useState<TQuality>(() => meter.read(performance.now()));
  useEffect(() => {
    const timer = setInterval(() => setQuality(meter.read(performance.now())), 500);
    return () => clearInterval(timer);
  }, [meter]);
  const latency = quality.latencyMs === null ? '—' : `${Math.round(quality.latencyMs)} ms`;
  const level =
    quality.fps === 0 ? 'bad' : quality.latencyMs !== null && quality.latencyMs > 400 ? 'poor' : 'good';
  return (
    <div
      className="pointer-events-none absolute top-2 right-2 flex items-center gap-2 rounded-md bg-black/60 px-2 py-1 font-mono text-[11px] text-white tabular-nums"
      data-testid="quality-indicator"
      data-fps={quality.fps}
      title={t`Picture quality`}
    >
      <ActivityIcon
        className={cn(
          'size-3.5',
          level === 'good' ? 'text-emerald-400' : level === 'poor' ? 'text-amber-400' : 'text-red-400',
        )}
      />
      <span>{t`${quality.fps} fps`}</span>
      <span>{t`latency ${latency}`}</span>
      <span>{formatBitrate(quality.bitrate)}</span>
    </div>
  );
}
