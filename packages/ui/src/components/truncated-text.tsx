// One line of text cut with an ellipsis when it does not fit, the whole of it in a tooltip — only when it is cut,
// so short names do not pop a tooltip that repeats them. Needs a TooltipProvider above it.

import type * as React from 'react';
import { useRef, useState } from 'react';
import { cn } from '../lib/utils';
import { Tooltip, TooltipContent, TooltipTrigger } from './tooltip';

export function TruncatedText({
  children,
  className,
  ...props
}: Omit<React.ComponentProps<'span'>, 'children'> & { children: string }) {
  const text = useRef<HTMLSpanElement>(null);
  const [open, setOpen] = useState(false);
  return (
    <Tooltip
      open={open}
      onOpenChange={(next) => {
        const element = text.current;
        setOpen(next && element !== null && element.scrollWidth > element.clientWidth);
      }}
    >
      <TooltipTrigger asChild>
        <span ref={text} className={cn('min-w-0 truncate', className)} {...props}>
          {children}
        </span>
      </TooltipTrigger>
      <TooltipContent className="wrap-anywhere">{children}</TooltipContent>
    </Tooltip>
  );
}
