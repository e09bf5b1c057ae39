import { Trans, useLingui } from '@lingui/react/macro';
import { Badge } from '@rooms/ui/badge';
import { Button } from '@rooms/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuSub,
  DropdownMenuSubContent,
  DropdownMenuSubTrigger,
  DropdownMenuTrigger,
} from '@rooms/ui/dropdown-menu';
import { cn } from '@rooms/ui/lib/utils';
import { Link } from '@tanstack/react-router';
import { LanguagesIcon, LogOutIcon, UserRoundIcon, WalletIcon } from 'lucide-react';
import { useCurrentUser, useUserInfo } from '../../hooks/use-current-user';
import { useLogout } from '../../hooks/use-logout';
import { formatMoney } from '../../lib/billing';
import { isVip } from '../../lib/session';
import { LanguageItems } from './language-menu';
import { UserAvatar } from './user-avatar';

export function UserMenu() {
  const { i18n, t } = useLingui();
  const user = useCurrentUser();
  const balance = useUserInfo().data?.balance;
  const logout = useLogout();
  const vip = isVip(user.level);
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button
          variant="ghost"
          className={cn('h-10 gap-2 px-2', vip && 'border border-vip/50 bg-vip/10 hover:bg-vip/20')}
          data-testid="user-menu-button"
          data-vip={vip}
        >
          {/* Named by the username it shows, then what it opens; the avatar's initial would only repeat it. */}
          <span aria-hidden className="inline-flex">
            <UserAvatar username={user.username} avatar={user.avatar} level={user.level} />
          </span>
          <span className="max-w-32 truncate max-md:sr-only">{user.username}</span>
          {vip ? (
            <Badge variant="vip" className="max-md:sr-only">
              VIP
            </Badge>
          ) : null}
          <span className="sr-only">{t`User menu`}</span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-64">
        <DropdownMenuLabel className="flex items-center gap-3">
          <UserAvatar username={user.username} avatar={user.avatar} level={user.level} className="size-10" />
          <span className="min-w-0">
            <span className="block truncate font-semibold" data-testid="user-menu-username">
              {user.username}
            </span>
            <span
              className="block truncate font-normal text-muted-foreground text-xs"
              data-testid="user-menu-email"
            >
              {user.email}
            </span>
          </span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to="/bill" data-testid="user-menu-balance">
            <WalletIcon />
            <Trans>Balance</Trans>
            <span className="ml-auto font-medium">
              {balance === undefined ? '…' : formatMoney(i18n, balance)}
            </span>
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to="/profile">
            <UserRoundIcon />
            <Trans>Personal info</Trans>
          </Link>
        </DropdownMenuItem>
        <DropdownMenuSub>
          <DropdownMenuSubTrigger>
            <LanguagesIcon />
            <Trans>Language</Trans>
          </DropdownMenuSubTrigger>
          <DropdownMenuSubContent>
            <LanguageItems />
          </DropdownMenuSubContent>
        </DropdownMenuSub>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={logout} data-testid="logout">
          <LogOutIcon />
          <Trans>Log out</Trans>
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
