// The room toolbar's pointing and reactions: a toggle that makes moving over the picture show the others where
// this member points (off, and saying why, while this member drives: their mouse is the pointer), and the reactions
// with their names for screen readers.
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { REACTION_EMOJI, type TReactionEmoji } from '@rooms/api/room-protocol';
import { Button } from '@rooms/ui/button';
import { cn } from '@rooms/ui/lib/utils';
import { Popover, PopoverContent, PopoverTrigger } from '@rooms/ui/popover';
import { MousePointer2Icon, SmilePlusIcon } from 'lucide-react';

const REACTION_NAMES: Record<TReactionEmoji, MessageDescriptor> = {
  '👍': msg`Thumbs up`,
  '👏': msg`Applause`,
  '😂': msg`Laughing`,
  '❤️': msg`Love`,
  '😮': msg`Surprised`,
  '🎉': msg`Celebrate`,
  '🤔': msg`Thinking`,
  '👀': msg`Looking`,
};

export function PointingControls({
  pointing,
  controlling,
  joined,
  onPointingChange,
  onReact,
}: {
  pointing: boolean;
  controlling: boolean;
  joined: boolean;
  onPointingChange: (pointing: boolean) => void;
  onReact: (emoji: TReactionEmoji) => void;
}) {
  const { i18n, t } = useLingui();
  const active = pointing && !controlling;
  const pointLabel = controlling
    ? t`Pointing is off while you are in control: your mouse drives the browser`
    : active
      ? t`Stop pointing`
      : t`Point at the picture: the others see where your mouse is`;
  return (
    <>
      <Button
        variant="ghost"
        size="icon"
        className={cn('size-8', active && 'bg-primary/15 text-primary hover:bg-primary/20')}
        aria-pressed={active}
        aria-label={pointLabel}
        title={pointLabel}
        disabled={controlling || !joined}
        onClick={() => onPointingChange(!pointing)}
        data-testid="room-point-toggle"
      >
        <MousePointer2Icon />
      </Button>
      <Popover>
        <PopoverTrigger asChild>
          <Button
            variant="ghost"
            size="icon"
            className="size-8"
            aria-label={t`Send a reaction`}
            title={t`Send a reaction`}
            disabled={!joined}
            data-testid="room-react"
          >
            <SmilePlusIcon />
          </Button>
        </PopoverTrigger>
        <PopoverContent align="end" className="w-auto p-1" aria-label={t`Reactions`}>
          <div className="grid grid-cols-4 gap-1">
            {REACTION_EMOJI.map((emoji) => {
              const name = i18n._(REACTION_NAMES[emoji]);
              return (
                <Button
                  key={emoji}
                  variant="ghost"
                  size="icon"
                  className="size-10 text-2xl"
                  aria-label={t`React: ${name}`}
                  title={name}
                  onClick={() => onReact(emoji)}
                  data-testid="room-reaction-option"
                  data-emoji={emoji}
                >
                  <span aria-hidden="true">{emoji}</span>
                </Button>
              );
            })}
          </div>
        </PopoverContent>
      </Popover>
    </>
  );
}
