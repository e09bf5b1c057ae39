import { Popover as PopoverPrimitive } from 'radix-ui';
import type * as React from 'react';
import { Layer, useLayerZIndex } from '../lib/layers';
import { cn } from '../lib/utils';

export const Popover = PopoverPrimitive.Root;
export const PopoverTrigger = PopoverPrimitive.Trigger;
export const PopoverAnchor = PopoverPrimitive.Anchor;

export function PopoverContent({
  className,
  align = 'center',
  sideOffset = 6,
  style,
  ...props
}: React.ComponentProps<typeof PopoverPrimitive.Content>) {
  const zIndex = useLayerZIndex('overlay');
  return (
    <Layer zIndex={zIndex}>
      <PopoverPrimitive.Portal>
        <PopoverPrimitive.Content
          align={align}
          sideOffset={sideOffset}
          className={cn(
            'animate-pop-in rounded-md border bg-popover p-3 text-popover-foreground shadow-md outline-hidden',
            className,
          )}
          style={{ ...style, zIndex }}
          {...props}
        />
      </PopoverPrimitive.Portal>
    </Layer>
  );
}
