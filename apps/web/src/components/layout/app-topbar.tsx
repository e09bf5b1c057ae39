import { useLingui } from '@lingui/react/macro';
import { Button } from '@rooms/ui/button';
import { Link, useNavigate } from '@tanstack/react-router';
import { MenuIcon, PlusIcon } from 'lucide-react';
import { forwardRef } from 'react';
import { LanguageMenu } from './language-menu';
import { Logo } from './logo';
import { ShareDialog } from './share-dialog';
import { UserMenu } from './user-menu';

export const AppTopbar = forwardRef<HTMLButtonElement, { onMenuToggle: () => void }>(function AppTopbar(
  { onMenuToggle },
  toggleRef,
) {
  const { t } = useLingui();
  const navigate = useNavigate();
  return (
    <header className="fixed inset-x-0 top-0 z-[1000] flex h-16 items-center gap-2 border-b bg-card/95 px-3 backdrop-blur sm:px-5">
      <Button
        ref={toggleRef}
        variant="ghost"
        size="icon"
        onClick={onMenuToggle}
        aria-label={t`Toggle menu`}
        data-testid="menu-toggle"
      >
        <MenuIcon />
      </Button>
      <Link to="/" className="min-w-0" aria-label={t`Home`}>
        <Logo className="max-sm:[&>span]:hidden" />
      </Link>
      <div className="ml-auto flex items-center gap-1">
        {/* Spec §2: the create-room button goes to the dashboard and asks it to open the create-room dialog. */}
        <Button
          size="sm"
          className="mr-1"
          onClick={() => navigate({ to: '/dashboard', search: { create: true } })}
          aria-label={t`Create room`}
          data-testid="topbar-create-room"
        >
          <PlusIcon />
          <span className="max-sm:hidden">{t`Create room`}</span>
        </Button>
        <LanguageMenu />
        <ShareDialog />
        <UserMenu />
      </div>
    </header>
  );
});
