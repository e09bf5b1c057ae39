// How the room's picture reaches this screen, refreshed twice a second: the media path, pictures painted per
// second, the input → picture latency (measured from this participant's own clicks and keys while they drive, an
// estimate from pings otherwise; quality-meter.ts), the bitrate received, and with sound the offset between
// picture and sound. Each figure explains itself in a tooltip; on a phone the row folds into one badge that opens
// the same figures with their explanations.
import { useLingui } from '@lingui/react/macro';
import { cn } from '@rooms/ui/lib/utils';
import { Popover, PopoverContent, PopoverTrigger } from '@rooms/ui/popover';
import { Tooltip, TooltipContent, TooltipProvider, TooltipTrigger } from '@rooms/ui/tooltip';
import { ActivityIcon } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { formatBitrate, type QualityMeter, type TQuality } from '../../../lib/room/quality-meter';
import type { RoomPlayer } from '../../../lib/room/room-player';
import { usePlayerSnapshot } from './sound-controls';

interface TFigure {
  key: string;
  value: string;
  explanation: string;
  testId?: string;
}

export function QualityIndicator({ meter, player }: { meter: QualityMeter; player?: RoomPlayer | null }) {
  const { t } = useLingui();
  const [quality, setQuality] = useState<TQuality>(() => meter.read(performance.now()));
  const playing = usePlayerSnapshot(player ?? null);
  useEffect(() => {
    const timer = setInterval(() => setQuality(meter.read(performance.now())), 500);
    return () => clearInterval(timer);
  }, [meter]);

  const latency = quality.inputLatencyMs === null ? null : Math.round(quality.inputLatencyMs);
  const level = quality.paintedFps === 0 ? 'bad' : latency !== null && latency > 250 ? 'poor' : 'good';
  const path = playing?.path ?? null;
  const offset = playing?.avOffsetMs ?? null;
  const sounding = playing?.sound.status === 'playing';
  const fps = quality.paintedFps;
  const received = quality.fps;
  const latencyText = latency === null ? '—' : `${latency} ms`;

  const figures: TFigure[] = [];
  if (path) {
    figures.push({
      key: 'path',
      value: path === 'h264' ? 'H.264' : t`Screencast`,
      explanation:
        path === 'h264'
          ? t`How the picture reaches you: H.264 is a video stream that your browser decodes, with the room's sound.`
          : t`How the picture reaches you: the screencast is a series of still pictures, used when this browser cannot decode the video stream. It has no sound.`,
      testId: 'quality-path',
    });
  }
  figures.push({
    key: 'fps',
    value: t`${fps} fps`,
    explanation: t`Pictures painted on this screen in the last second (${received} arrived). More is smoother; a still page sends fewer.`,
  });
  figures.push({
    key: 'latency',
    value: quality.inputLatencyKind === 'estimated' ? `≈${latencyText}` : latencyText,
    explanation:
      quality.inputLatencyKind === 'measured'
        ? t`Input to picture: the time from your clicks and key presses until this screen showed their effect, measured on your last few inputs.`
        : t`Input to picture, estimated: how long after someone clicks in the room this screen shows it. Half your connection's round trip, plus the room browser's time to draw and encode it, plus the age of each picture when painted here. Take control and click to measure your own.`,
    testId: 'quality-latency',
  });
  figures.push({
    key: 'bitrate',
    value: formatBitrate(quality.bitrate),
    explanation: t`Data received for the picture in the last second.`,
  });
  if (sounding && offset !== null) {
    figures.push({
      key: 'av',
      value: t`A/V ${offset} ms`,
      explanation: t`How far the picture runs ahead of the sound you hear (negative: behind it). People notice from about 45 ms.`,
    });
  }

  const icon = (
    <ActivityIcon
      className={cn(
        'size-3.5 shrink-0',
        level === 'good' ? 'text-emerald-400' : level === 'poor' ? 'text-amber-400' : 'text-red-400',
      )}
    />
  );
  const box =
    'absolute top-2 right-2 rounded-md bg-black/60 px-2 py-1 font-mono text-[11px] text-white tabular-nums';

  return (
    <div
      data-testid="quality-indicator"
      data-fps={fps}
      data-received-fps={received}
      data-latency={latency ?? ''}
      data-latency-kind={quality.inputLatencyKind ?? ''}
      data-bitrate={Math.round(quality.bitrate)}
      data-path={path ?? ''}
      data-av-offset={offset ?? ''}
      data-av-raw-offset={playing?.rawOffsetMs ?? ''}
      data-sound-delay={playing?.soundDelayMs ?? 0}
      data-sound-buffer={playing?.soundBufferMs ?? ''}
      data-sound-underruns={playing?.soundUnderruns ?? 0}
      data-sound-dropped={playing?.soundDroppedMs ?? 0}
    >
      <TooltipProvider delayDuration={200}>
        <div className={cn(box, 'hidden items-center gap-2 sm:flex')}>
          {icon}
          {figures.map((figure) => (
            <Figure key={figure.key} figure={figure} />
          ))}
        </div>
      </TooltipProvider>
      <Popover>
        <PopoverTrigger asChild>
          <button
            type="button"
            className={cn(box, 'flex items-center gap-1.5 sm:hidden')}
            // Named by the figure it shows, so a voice command with what is seen finds it.
            aria-label={t`Picture quality: ${latencyText}`}
            data-testid="quality-badge"
          >
            {icon}
            <span>{latencyText}</span>
          </button>
        </PopoverTrigger>
        <PopoverContent align="end" className="w-64 text-xs" data-testid="quality-details">
          <dl className="grid gap-2">
            {figures.map((figure) => (
              <div key={figure.key}>
                <dt className="font-medium font-mono tabular-nums">{figure.value}</dt>
                <dd className="text-muted-foreground">{figure.explanation}</dd>
              </div>
            ))}
          </dl>
        </PopoverContent>
      </Popover>
    </div>
  );
}

function Figure({ figure }: { figure: TFigure }): ReactNode {
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <button
          type="button"
          className="cursor-help outline-none focus-visible:underline"
          data-testid={figure.testId}
        >
          {figure.value}
        </button>
      </TooltipTrigger>
      <TooltipContent side="bottom" className="max-w-64">
        {figure.explanation}
      </TooltipContent>
    </Tooltip>
  );
}
