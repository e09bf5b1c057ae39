import { cn } from '@rooms/ui/lib/utils';
import { CrownIcon } from 'lucide-react';
import { isVip } from '../../lib/session';

/** The user's picture or initial; VIP users (level above 1) get a golden ring and a crown. */
export function UserAvatar({
  username,
  avatar,
  level,
  className,
}: {
  username: string;
  avatar: string;
  level: number;
  className?: string;
}) {
  const vip = isVip(level);
  const picture = /^(https?:\/\/|\/|data:image\/)/.test(avatar) ? avatar : null;
  return (
    <span className={cn('relative inline-flex size-8 shrink-0', className)} data-vip={vip}>
      <span
        className={cn(
          'flex size-full items-center justify-center overflow-hidden rounded-full bg-primary/20 font-semibold text-primary text-sm uppercase',
          vip && 'bg-vip/20 text-vip ring-2 ring-vip',
        )}
      >
        {picture ? <img src={picture} alt="" className="size-full object-cover" /> : (username[0] ?? '?')}
      </span>
      {vip ? (
        <CrownIcon className="absolute -top-2 -right-1.5 size-3.5 rotate-12 fill-vip text-vip" aria-hidden />
      ) : null}
    </span>
  );
}
