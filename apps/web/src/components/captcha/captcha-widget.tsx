import { Trans } from '@lingui/react/macro';
import { cn } from '@rooms/ui/lib/utils';
import { Spinner } from '@rooms/ui/spinner';
import { CheckIcon, RotateCwIcon, ShieldCheckIcon } from 'lucide-react';
import type { TCaptcha } from './use-captcha';

/** An "I'm not a robot" box: a click starts the captcha; it shows the work in progress and the result. */
export function CaptchaWidget({ captcha, className }: { captcha: TCaptcha; className?: string }) {
  const { status, provider } = captcha;
  return (
    // biome-ignore lint/a11y/useSemanticElements: a checkbox in look and role, but ticking it starts asynchronous work.
    <button
      type="button"
      role="checkbox"
      aria-checked={status === 'done'}
      aria-busy={status === 'solving'}
      data-testid="captcha"
      data-status={status}
      disabled={!provider || status === 'solving' || status === 'done'}
      onClick={captcha.start}
      className={cn(
        'relative flex w-full cursor-pointer items-center gap-3 overflow-hidden rounded-md border bg-secondary/40 px-3 py-3 text-left text-sm transition-colors hover:bg-secondary/70 disabled:cursor-default',
        status === 'done' && 'border-primary/60',
        status === 'error' && 'border-destructive/60',
        className,
      )}
    >
      <span
        className={cn(
          'flex size-6 shrink-0 items-center justify-center rounded border-2 border-muted-foreground/60 bg-background',
          status === 'done' && 'border-primary bg-primary text-primary-foreground',
        )}
      >
        {status === 'solving' ? <Spinner className="size-4 text-primary" /> : null}
        {status === 'done' ? <CheckIcon className="size-4" /> : null}
        {status === 'error' ? <RotateCwIcon className="size-3.5 text-destructive" /> : null}
      </span>
      <span className="flex-1">
        {status === 'idle' ? <Trans>I'm not a robot</Trans> : null}
        {status === 'solving' ? <Trans>Verifying…</Trans> : null}
        {status === 'done' ? <Trans>Verified</Trans> : null}
        {status === 'error' ? <Trans>Verification failed, click to retry</Trans> : null}
      </span>
      <span className="flex flex-col items-center text-[10px] text-muted-foreground leading-tight">
        <ShieldCheckIcon className="size-5 text-primary" />
        {provider === 'geetest' ? 'GeeTest' : <Trans>Proof of work</Trans>}
      </span>
      {status === 'solving' ? (
        <span className="absolute inset-x-0 bottom-0 h-0.5 overflow-hidden bg-primary/20">
          <span className="block h-full w-1/3 animate-[captcha-progress_1s_ease-in-out_infinite] bg-primary" />
        </span>
      ) : null}
    </button>
  );
}
