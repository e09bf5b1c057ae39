// A small toast system in the spirit of Sonner: a module-level store, one <Toaster /> at the root.
// Width 25rem, life 3000 ms unless a toast says otherwise. A toast may carry action buttons (a choice to
// make, like handing over control); each closes the toast after it runs.
// Where: the top right is where every screen keeps its main buttons (the top bar's Create room and user menu,
// a page's own actions, the room's controls and its hand-over buttons), so toasts stack in the bottom-right corner
// (along the bottom on a phone), as far from the edges as `--toaster-bottom` and `--toaster-right` say (1rem unless a
// screen sets them on :root to keep clear of its own controls). A toast raised while a dialog is open goes to the
// top instead, centred, so it covers neither the dialog's buttons at its foot nor its close button.
// Toasts sit above everything, dialogs included, and stay usable while a modal dialog is open: the toaster is a
// branch of radix's dismissable layers (as radix's own Toast viewport is), so a click on a toast is not a click
// outside the open dialog or menu, which would close it.

import { clsx as cn } from 'clsx';
import { CircleAlertIcon, CircleCheckIcon, InfoIcon, TriangleAlertIcon, XIcon } from 'lucide-react';
import { DismissableLayer } from 'radix-ui/internal';
import { useSyncExternalStore } from 'react';
import { Button } from './button';

export type TToastSeverity = 'success' | 'info' | 'warn' | 'error';

export interface TToastOptions {
  severity: TToastSeverity;
  summary: string;
  detail?: string;
  /** Milliseconds before the toast closes by itself; `Infinity` keeps it until it is closed. */
  life?: number;
  /** Buttons under the text, in order; the first `primary` one is the main choice. */
  actions?: TToastAction[];
}

export interface TToastAction {
  label: string;
  onClick: () => void;
  primary?: boolean;
}

export interface TToast extends TToastOptions {
  id: number;
  life: number;
  /**
   * Shown while a dialog is open: at the top, clear of the dialog's own buttons. Undefined until the frame after
   * it was raised, when it is placed: a toast raised as its dialog closes (a room created, say) belongs at the
   * bottom, and the dialog leaves the page only with the next render.
   */
  overDialog?: boolean;
}

export const TOAST_LIFE_MS = 3000;

let toasts: TToast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) listener();
}

export function dismissToast(id: number): void {
  toasts = toasts.filter((toast) => toast.id !== id);
  emit();
}

export function showToast(options: TToastOptions): number {
  const id = nextId++;
  const entry: TToast = { ...options, id, life: options.life ?? TOAST_LIFE_MS };
  toasts = [...toasts, entry];
  emit();
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => place(id));
  else place(id);
  // setTimeout would read Infinity as 0 and close the toast at once.
  if (Number.isFinite(entry.life)) setTimeout(() => dismissToast(id), entry.life);
  return id;
}

function place(id: number): void {
  const overDialog = typeof document !== 'undefined' && document.querySelector('[role="dialog"]') !== null;
  toasts = toasts.map((toast) => (toast.id === id ? { ...toast, overDialog } : toast));
  emit();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const icons = {
  success: CircleCheckIcon,
  info: InfoIcon,
  warn: TriangleAlertIcon,
  error: CircleAlertIcon,
} as const;

const tones = {
  success: 'border-l-success text-success',
  info: 'border-l-info text-info',
  warn: 'border-l-warning text-warning',
  error: 'border-l-destructive text-destructive',
} as const;

/** Where each stack sits; both are 25rem wide at most, the screen's width less 2rem on a phone. */
const stacks = {
  bottom:
    'right-[var(--toaster-right,1rem)] bottom-[var(--toaster-bottom,1rem)] flex-col max-w-[calc(100vw-2rem)]',
  top: 'top-4 left-1/2 -translate-x-1/2 flex-col max-w-[calc(100vw-2rem)]',
} as const;

export function Toaster({ closeLabel }: { closeLabel: string }) {
  const current = useSyncExternalStore(
    subscribe,
    () => toasts,
    () => toasts,
  );
  return (
    <>
      {(['bottom', 'top'] as const).map((stack) => (
        <DismissableLayer.Branch asChild key={stack}>
          <section
            aria-live="polite"
            data-toaster={stack}
            className={cn('pointer-events-none fixed z-[1200] flex w-[25rem] gap-2', stacks[stack])}
          >
            {current
              .filter((toast) => toast.overDialog !== undefined && toast.overDialog === (stack === 'top'))
              .map((toast) => (
                <ToastCard key={toast.id} toast={toast} closeLabel={closeLabel} />
              ))}
          </section>
        </DismissableLayer.Branch>
      ))}
    </>
  );
}

function ToastCard({ toast, closeLabel }: { toast: TToast; closeLabel: string }) {
  const Icon = icons[toast.severity];
  return (
    <div
      role={toast.severity === 'error' ? 'alert' : 'status'}
      data-severity={toast.severity}
      className={cn(
        'pointer-events-auto flex animate-toast-in items-start gap-3 rounded-md border border-l-4 bg-popover p-4 shadow-lg',
        tones[toast.severity],
      )}
    >
      <Icon className="mt-0.5 size-5 shrink-0" />
      <div className="min-w-0 flex-1">
        <p className="wrap-anywhere font-semibold text-sm">{toast.summary}</p>
        {toast.detail ? (
          <p className="wrap-anywhere mt-1 text-foreground/90 text-sm">{toast.detail}</p>
        ) : null}
        {toast.actions?.length ? (
          <div className="mt-3 flex flex-wrap gap-2">
            {toast.actions.map((action) => (
              <Button
                key={action.label}
                size="sm"
                variant={action.primary ? 'default' : 'outline'}
                onClick={() => {
                  dismissToast(toast.id);
                  action.onClick();
                }}
              >
                {action.label}
              </Button>
            ))}
          </div>
        ) : null}
      </div>
      <button
        type="button"
        aria-label={closeLabel}
        className="shrink-0 cursor-pointer opacity-70 hover:opacity-100"
        onClick={() => dismissToast(toast.id)}
      >
        <XIcon className="size-4" />
      </button>
    </div>
  );
}
