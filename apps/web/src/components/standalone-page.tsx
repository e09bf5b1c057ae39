import { Spinner } from '@rooms/ui/spinner';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { LanguageMenu } from './layout/language-menu';
import { Logo } from './layout/logo';

/** Pages outside the main layout (room, shared room, auth): a slim header and centred content. */
export function StandalonePage({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <header className="flex h-16 items-center justify-between px-4 sm:px-6">
        <Link to="/">
          <Logo />
        </Link>
        <LanguageMenu />
      </header>
      <main className="mx-auto flex w-full max-w-3xl flex-1 flex-col justify-center p-4 sm:p-6">
        {children}
      </main>
    </div>
  );
}

/** A standalone page still loading what it shows (the room's or shared room's settings). */
export function StandaloneLoading() {
  return (
    <StandalonePage>
      <div className="flex justify-center">
        <Spinner />
      </div>
    </StandalonePage>
  );
}
