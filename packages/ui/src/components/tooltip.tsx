import { Tooltip as TooltipPrimitive } from 'radix-ui';
import type * as React from 'react';
import { Layer, useLayerZIndex } from '../lib/layers';
import { cn } from '../lib/utils';

export const TooltipProvider = TooltipPrimitive.Provider;
export const Tooltip = TooltipPrimitive.Root;
export const TooltipTrigger = TooltipPrimitive.Trigger;

export function TooltipContent({
  className,
  sideOffset = 4,
  style,
  ...props
}: React.ComponentProps<typeof TooltipPrimitive.Content>) {
  const zIndex = useLayerZIndex('tooltip');
  return (
    <Layer zIndex={zIndex}>
      <TooltipPrimitive.Portal>
        <TooltipPrimitive.Content
          sideOffset={sideOffset}
          className={cn(
            'max-w-[12.5rem] animate-pop-in rounded-md bg-foreground px-3 py-1.5 text-background text-xs',
            className,
          )}
          style={{ ...style, zIndex }}
          {...props}
        />
      </TooltipPrimitive.Portal>
    </Layer>
  );
}
