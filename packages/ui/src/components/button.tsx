import { cva, type VariantProps } from 'class-variance-authority';
import { Slot } from 'radix-ui';
import type * as React from 'react';
import { cn } from '../lib/utils';

// A disabled button reads as one: dimmed and greyed (a faded emerald still looks like a button to press on the dark
// page) with the not-allowed cursor over it, so it keeps its pointer events; each variant puts its background back
// under a pointer, so hovering changes nothing. The hover styles stay plain `hover:` classes, which a page's own
// `hover:` classes replace (cn merges them).
export const buttonVariants = cva(
  "inline-flex shrink-0 cursor-pointer items-center justify-center gap-2 whitespace-nowrap rounded-md font-medium text-sm outline-none transition-colors focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:cursor-not-allowed disabled:opacity-50 disabled:saturate-[.35] [&_svg:not([class*='size-'])]:size-4 [&_svg]:pointer-events-none [&_svg]:shrink-0",
  {
    variants: {
      variant: {
        default: 'bg-primary text-primary-foreground hover:bg-primary/90 disabled:hover:bg-primary',
        destructive:
          'bg-destructive-solid text-white hover:bg-destructive-solid/90 disabled:hover:bg-destructive-solid',
        outline:
          'border bg-transparent hover:bg-accent hover:text-accent-foreground disabled:hover:bg-transparent',
        secondary: 'bg-secondary text-secondary-foreground hover:bg-secondary/80 disabled:hover:bg-secondary',
        ghost: 'hover:bg-accent hover:text-accent-foreground disabled:hover:bg-transparent',
        link: 'text-primary underline-offset-4 hover:underline disabled:hover:no-underline',
      },
      size: {
        default: 'h-9 px-4 py-2',
        sm: 'h-8 gap-1.5 px-3',
        lg: 'h-11 px-6 text-base',
        icon: 'size-9',
      },
    },
    defaultVariants: { variant: 'default', size: 'default' },
  },
);

export interface ButtonProps extends React.ComponentProps<'button'>, VariantProps<typeof buttonVariants> {
  asChild?: boolean;
}

export function Button({ className, variant, size, asChild = false, type, ...props }: ButtonProps) {
  const Comp = asChild ? Slot.Root : 'button';
  return (
    <Comp
      data-slot="button"
      type={asChild ? undefined : (type ?? 'button')}
      className={cn(buttonVariants({ variant, size, className }))}
      {...props}
    />
  );
}
