import { useLingui } from '@lingui/react/macro';
import { Button } from '@rooms/ui/button';
import { Link, useNavigate } from '@tanstack/react-router';
import { MenuIcon, PlusIcon } from 'lucide-react';
import { forwardRef } from 'react';
import { LanguageMenu } from './language-menu';
import { Logo } from './logo';
import { ShareDialog } from './share-dialog';
import { UserMenu } from './user-menu';

export const AppTopbar = forwardRef<
  HTMLButtonElement,
  {
    onMenuToggle: () => void;
    /** The id of the sidebar the toggle shows and hides, and whether it is shown. */
    menuId: string;
    menuExpanded: boolean;
  }
>(function AppTopbar({ onMenuToggle, menuId, menuExpanded }, toggleRef) {
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
        aria-expanded={menuExpanded}
        aria-controls={menuId}
        data-testid="menu-toggle"
      >
        <MenuIcon />
      </Button>
      {/* Named by the site name it shows; on phones the name is only out of sight, not out of the tree. */}
      <Link to="/" className="min-w-0">
        <Logo className="max-sm:[&>span]:sr-only" />
      </Link>
      <div className="ml-auto flex items-center gap-1">
        {/* The create-room button goes to the dashboard and asks it to open the create-room dialog. */}
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
