import { XIcon } from 'lucide-react';
import { Dialog as DialogPrimitive } from 'radix-ui';
import type * as React from 'react';
import { useRef } from 'react';
import { Layer, useLayerZIndex } from '../lib/layers';
import { cn } from '../lib/utils';

export const Dialog = DialogPrimitive.Root;
export const DialogTrigger = DialogPrimitive.Trigger;
export const DialogClose = DialogPrimitive.Close;

export function DialogContent({
  className,
  children,
  closeLabel,
  onOpenAutoFocus,
  onCloseAutoFocus,
  style,
  ...props
}: React.ComponentProps<typeof DialogPrimitive.Content> & { closeLabel: string }) {
  // The mask and the dialog share the modal layer: what the dialog opens goes above both.
  const zIndex = useLayerZIndex('modal');
  // Radix gives focus back only to a <DialogTrigger>; a dialog opened from state (a card's button, a confirmation,
  // a URL flag) has none, and closing it left focus on <body>. So remember what had focus when the dialog opened
  // and give focus back to it, trigger or not; when that control is gone, radix's own choice stands.
  const opener = useRef<HTMLElement | null>(null);
  return (
    <Layer zIndex={zIndex}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay
          data-slot="dialog-overlay"
          className="fixed inset-0 animate-fade-in bg-black/60"
          style={{ zIndex }}
        />
        <DialogPrimitive.Content
          data-slot="dialog-content"
          style={{ ...style, zIndex }}
          className={cn(
            'fixed top-1/2 left-1/2 grid max-h-[90vh] w-[90vw] -translate-x-1/2 -translate-y-1/2 animate-dialog-in gap-4 overflow-y-auto rounded-lg border bg-background p-6 shadow-lg md:w-[50vw]',
            className,
          )}
          {...props}
          onOpenAutoFocus={(event) => {
            const active = document.activeElement;
            opener.current = active instanceof HTMLElement && active !== document.body ? active : null;
            onOpenAutoFocus?.(event);
          }}
          onCloseAutoFocus={(event) => {
            onCloseAutoFocus?.(event);
            const target = opener.current;
            opener.current = null;
            if (event.defaultPrevented || !target?.isConnected) return;
            event.preventDefault();
            target.focus();
          }}
        >
          {children}
          <DialogPrimitive.Close
            className="absolute top-4 right-4 cursor-pointer rounded-xs opacity-70 transition-opacity hover:opacity-100 focus:outline-hidden focus-visible:ring-2 focus-visible:ring-ring"
            aria-label={closeLabel}
          >
            <XIcon className="size-4" />
          </DialogPrimitive.Close>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </Layer>
  );
}

export function DialogHeader({ className, ...props }: React.ComponentProps<'div'>) {
  return <div className={cn('flex flex-col gap-2 text-left', className)} {...props} />;
}

export function DialogFooter({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div className={cn('flex flex-col-reverse gap-2 sm:flex-row sm:justify-end', className)} {...props} />
  );
}

export function DialogTitle({ className, ...props }: React.ComponentProps<typeof DialogPrimitive.Title>) {
  return <DialogPrimitive.Title className={cn('font-semibold text-lg leading-none', className)} {...props} />;
}

export function DialogDescription({
  className,
  ...props
}: React.ComponentProps<typeof DialogPrimitive.Description>) {
  return (
    <DialogPrimitive.Description className={cn('text-muted-foreground text-sm', className)} {...props} />
  );
}
