// The room menu's picture quality: Auto (the room picks the layer the viewer's link carries) or a fixed High,
// Medium or Low, each with its size; kept in this browser for every room (lib/room/layer-choice.ts). Only for the
// layered H.264 picture: the screencast has one picture and no choice.
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { TServerMessageOf, TStreamLayerChoice, TStreamLayerName } from '@rooms/api/room-protocol';
import { Button } from '@rooms/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@rooms/ui/dropdown-menu';
import { GaugeIcon } from 'lucide-react';
import { findLayer, layerSize } from '../../../lib/room/layer-choice';

export const LAYER_LABELS: Record<TStreamLayerChoice, MessageDescriptor> = {
  auto: msg({ message: 'Auto', context: 'picture quality' }),
  high: msg({ message: 'High', context: 'picture quality' }),
  medium: msg({ message: 'Medium', context: 'picture quality' }),
  low: msg({ message: 'Low', context: 'picture quality' }),
};

const CHOICES: readonly TStreamLayerChoice[] = ['auto', 'high', 'medium', 'low'];

export function PictureQualityMenu({
  stream,
  layer,
  choice,
  onChoose,
}: {
  stream: TServerMessageOf<'stream/config'> | null;
  /** The layer received now, if the room said. */
  layer: TStreamLayerName | null;
  choice: TStreamLayerChoice;
  onChoose: (choice: TStreamLayerChoice) => void;
}) {
  const { i18n, t } = useLingui();
  const layers = stream?.layers ?? [];
  if (layers.length === 0) return null;
  const current = findLayer(layers, layer);
  const currentLabel = current ? i18n._(LAYER_LABELS[current.name]) : null;
  const currentSize = current ? layerSize(current) : null;
  // What the button says: the choice, and with Auto the layer it came to.
  const summary =
    choice === 'auto' && currentLabel ? t`Auto (${currentLabel})` : i18n._(LAYER_LABELS[choice]);

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button
          variant="ghost"
          size="sm"
          className="h-8 gap-1.5 px-2"
          aria-label={t`Picture quality: ${summary}`}
          data-testid="room-quality-menu"
          data-choice={choice}
          data-layer={layer ?? ''}
        >
          <GaugeIcon />
          <span className="hidden text-xs sm:inline">{summary}</span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-60" data-testid="room-quality-options">
        <DropdownMenuLabel className="font-medium">
          <Trans>Picture quality</Trans>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuRadioGroup
          value={choice}
          onValueChange={(value) => {
            const chosen = CHOICES.find((option) => option === value);
            if (chosen) onChoose(chosen);
          }}
        >
          {CHOICES.map((option) => {
            const size = option === 'auto' ? null : findLayer(layers, option);
            // A layer the room does not encode (a small room has fewer) is not offered.
            if (option !== 'auto' && !size) return null;
            return (
              <DropdownMenuRadioItem
                key={option}
                value={option}
                className="flex-col items-start gap-0"
                data-testid={`room-quality-${option}`}
              >
                <span>
                  {i18n._(LAYER_LABELS[option])}
                  {size ? <span className="text-muted-foreground"> · {layerSize(size)}</span> : null}
                </span>
                {option === 'auto' ? (
                  <span className="text-muted-foreground text-xs">
                    {currentLabel && currentSize ? (
                      <Trans>
                        Follows your connection: now {currentLabel} · {currentSize}
                      </Trans>
                    ) : (
                      <Trans>Follows your connection</Trans>
                    )}
                  </span>
                ) : null}
              </DropdownMenuRadioItem>
            );
          })}
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
