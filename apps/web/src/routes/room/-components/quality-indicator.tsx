// How the room's picture reaches this screen, refreshed twice a second: the media path, the layer received, pictures
// painted per second ('idle' on a still page: nothing to send is not a fault), the input → picture latency
// (measured from this participant's own clicks and keys while they drive, an estimate from pings and the pictures'
// ages otherwise; quality-meter.ts), the bitrate received, and while sound is heard the offset between picture and
// sound. A figure nothing recent backs reads "—" rather than an old value; red means something is wrong: pictures
// that should come do not, or the connection is lost. Each figure explains itself in a tooltip; on a phone the
// row folds into one badge that opens the same figures with their explanations.
import { useLingui } from '@lingui/react/macro';
import type { TStreamLayer } from '@rooms/api/room-protocol';
import { cn } from '@rooms/ui/lib/utils';
import { Popover, PopoverContent, PopoverTrigger } from '@rooms/ui/popover';
import { Tooltip, TooltipContent, TooltipProvider, TooltipTrigger } from '@rooms/ui/tooltip';
import { ActivityIcon } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { layerSize } from '../../../lib/room/layer-choice';
import { formatBitrate, type QualityMeter, type TQuality } from '../../../lib/room/quality-meter';
import type { RoomPlayer } from '../../../lib/room/room-player';
import { LAYER_LABELS } from './picture-quality-menu';
import { usePlayerSnapshot } from './sound-controls';

interface TFigure {
  key: string;
  value: string;
  explanation: string;
  testId?: string;
}

export function QualityIndicator({
  meter,
  player,
  layer = null,
  automatic = true,
  connected = true,
  driving = false,
}: {
  meter: QualityMeter;
  player?: RoomPlayer | null;
  /** The layer of the picture received now, when the picture has layers. */
  layer?: TStreamLayer | null;
  /** Whether the room picks the layer (the viewer's choice is Auto). */
  automatic?: boolean;
  /** False while the connection is down (reconnecting): nothing can arrive, whatever the last figures said. */
  connected?: boolean;
  /** This participant is in control: their pictures are not held for the sound (lib/room/av-sync.ts). */
  driving?: boolean;
}) {
  const { i18n, t } = useLingui();
  const [quality, setQuality] = useState<TQuality>(() => meter.read(performance.now()));
  const playing = usePlayerSnapshot(player ?? null);
  useEffect(() => {
    const timer = setInterval(() => setQuality(meter.read(performance.now())), 500);
    return () => clearInterval(timer);
  }, [meter]);

  const flow = connected ? quality.flow : 'stalled';
  const level = connected ? quality.level : 'bad';
  const latency = !connected || quality.inputLatencyMs === null ? null : Math.round(quality.inputLatencyMs);
  const path = playing?.path ?? null;
  const sounding = playing?.sound.status === 'playing';
  // Only an offset measured lately with sound heard: a silent page has no lip sync to show.
  const offset = sounding && connected ? (playing?.avOffsetMs ?? null) : null;
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
  if (layer) {
    const name = i18n._(LAYER_LABELS[layer.name]);
    const size = layerSize(layer);
    figures.push({
      key: 'layer',
      value: name,
      explanation: automatic
        ? t`The picture you receive: ${name}, ${size}. Chosen for what your connection carries now; choose a fixed quality in the room's menu.`
        : t`The picture you receive: ${name}, ${size}, as you chose in the room's menu, whatever your connection carries.`,
      testId: 'quality-layer',
    });
  }
  figures.push({
    key: 'fps',
    value:
      flow === 'idle'
        ? t`idle`
        : flow === 'waiting' || (flow === 'stalled' && fps === 0)
          ? '—'
          : t`${fps} fps`,
    explanation:
      flow === 'idle'
        ? t`Pictures painted on this screen: none lately, because the room's page is still and there is nothing new to show. The connection is fine.`
        : flow === 'stalled'
          ? t`Pictures painted on this screen in the last second: ${fps}. The connection to the room is not answering, or it cannot carry the picture.`
          : flow === 'stuck'
            ? t`Pictures painted on this screen in the last second: ${fps}, although ${received} arrived. The picture is stuck until the next full picture comes.`
            : t`Pictures painted on this screen in the last second (${received} arrived). More is smoother; a page that moves little sends fewer.`,
    testId: 'quality-fps',
  });
  figures.push({
    key: 'latency',
    value: quality.inputLatencyKind === 'estimated' && latency !== null ? `≈${latencyText}` : latencyText,
    explanation:
      latency === null
        ? t`Input to picture: no figure while no pictures arrive. It comes back with the next pictures, or when you take control and click.`
        : quality.inputLatencyKind === 'measured'
          ? t`Input to picture: the time from your clicks and key presses until this screen showed their effect, measured on your last few inputs.`
          : t`Input to picture, estimated: how long after someone clicks in the room this screen shows it. Half your connection's round trip, plus the room browser's time to draw and encode it, plus the age of each picture when painted here. Take control and click to measure your own.`,
    testId: 'quality-latency',
  });
  figures.push({
    key: 'bitrate',
    value: formatBitrate(quality.bitrate),
    explanation: t`Data received for the picture in the last second.`,
  });
  if (offset !== null) {
    figures.push({
      key: 'av',
      value: t`A/V ${offset} ms`,
      explanation: driving
        ? t`How far the picture runs ahead of the sound you hear (negative: behind it). While you are in control, pictures are shown at once and not held for the sound, so the sound may trail. People notice from about 45 ms.`
        : t`How far the picture runs ahead of the sound you hear (negative: behind it). People notice from about 45 ms.`,
      testId: 'quality-av',
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
      data-latency-kind={latency === null ? '' : (quality.inputLatencyKind ?? '')}
      data-flow={flow}
      data-level={level}
      data-layer={layer?.name ?? ''}
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
