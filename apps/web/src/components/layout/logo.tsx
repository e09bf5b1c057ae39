import { Trans } from '@lingui/react/macro';
import { cn } from '@rooms/ui/lib/utils';

export function Logo({ className }: { className?: string }) {
  return (
    <span className={cn('flex items-center gap-2 font-semibold text-lg', className)}>
      <img src="/favicon.svg" alt="" className="size-7" />
      <span className="whitespace-nowrap">
        <Trans>Cloud-browser rooms</Trans>
      </span>
    </span>
  );
}
