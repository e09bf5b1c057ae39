// The main layout: top bar, sidebar and page. The sidebar follows the menu state machine of lib/menu-state.ts.
import { cn } from '@rooms/ui/lib/utils';
import { TooltipProvider } from '@rooms/ui/tooltip';
import { Outlet } from '@tanstack/react-router';
import { useEffect, useReducer, useRef } from 'react';
import { useWindowWidth } from '../../hooks/use-window-width';
import { initialMenuState, isDesktop, isMobile, isSidebarActive, menuReducer } from '../../lib/menu-state';
import { AppSidebar } from './app-sidebar';
import { AppTopbar } from './app-topbar';

export function AppLayout() {
  const [menu, dispatch] = useReducer(menuReducer, initialMenuState);
  const width = useWindowWidth();
  const desktop = isDesktop(width);
  const sidebar = useRef<HTMLElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const floating = isSidebarActive(menu);

  const visible =
    menu.menuMode === 'overlay'
      ? menu.overlayMenuActive
      : desktop
        ? !menu.staticMenuDesktopInactive
        : menu.staticMenuMobileActive;
  const pushesContent = menu.menuMode === 'static' && desktop && !menu.staticMenuDesktopInactive;

  // Spec §2: a click outside the sidebar closes the overlay or mobile menu.
  useEffect(() => {
    if (!floating) return;
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node;
      if (sidebar.current?.contains(target) || toggle.current?.contains(target)) return;
      dispatch({ type: 'outside-click' });
    };
    // Escape closes it as it closes a dialog.
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') dispatch({ type: 'dismiss' });
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [floating]);

  // The phone menu does not outlive the phone layout: grown to desktop width, its mask would block every click.
  useEffect(() => {
    if (desktop && menu.staticMenuMobileActive) dispatch({ type: 'dismiss' });
  }, [desktop, menu.staticMenuMobileActive]);

  return (
    <TooltipProvider delayDuration={300}>
      <div
        className="min-h-dvh"
        data-testid="app-layout"
        data-menu-mode={menu.menuMode}
        data-mobile={isMobile(width)}
        data-sidebar-active={floating}
      >
        <AppTopbar
          ref={toggle}
          onMenuToggle={() => dispatch({ type: 'toggle', windowWidth: window.innerWidth })}
        />
        <AppSidebar
          ref={sidebar}
          visible={visible}
          floating={floating && visible}
          onChoose={(item) => dispatch({ type: 'choose', item, windowWidth: window.innerWidth })}
        />
        {floating && visible ? (
          <div className="fixed inset-0 top-16 z-[999] animate-fade-in bg-black/50" aria-hidden />
        ) : null}
        <main className={cn('min-h-dvh pt-16 transition-[margin] duration-200', pushesContent && 'ml-72')}>
          <div className="mx-auto max-w-6xl p-4 sm:p-6 lg:p-8">
            <Outlet />
          </div>
        </main>
      </div>
    </TooltipProvider>
  );
}
