// The main layout: top bar, sidebar, page and an optional bar along the bottom (the impersonation banner). The
// sidebar follows the menu state machine of lib/menu-state.ts.

import { Trans } from '@lingui/react/macro';
import { cn } from '@rooms/ui/lib/utils';
import { TooltipProvider } from '@rooms/ui/tooltip';
import { Outlet } from '@tanstack/react-router';
import { type CSSProperties, type ReactNode, useEffect, useId, useReducer, useRef } from 'react';
import { useElementHeight } from '../../hooks/use-element-height';
import { useWindowWidth } from '../../hooks/use-window-width';
import { initialMenuState, isDesktop, isMobile, isSidebarActive, menuReducer } from '../../lib/menu-state';
import { AppSidebar } from './app-sidebar';
import { AppTopbar } from './app-topbar';

const MAIN_ID = 'main-content';

/**
 * `bottomBar` stays in view along the bottom edge. Whatever else is fixed to the viewport ends above it rather
 * than under it: the sidebar (its footer stays readable), the menu's mask and the page's last lines. Its height
 * is measured, as it wraps to two or three lines on a phone, and handed down as `--app-bottom-inset`.
 */
export function AppLayout({ bottomBar }: { bottomBar?: ReactNode }) {
  const [menu, dispatch] = useReducer(menuReducer, initialMenuState);
  const bottom = useRef<HTMLDivElement>(null);
  const bottomInset = useElementHeight(bottom);
  const width = useWindowWidth();
  const desktop = isDesktop(width);
  const sidebar = useRef<HTMLElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const main = useRef<HTMLElement>(null);
  const menuId = useId();
  const floating = isSidebarActive(menu);

  const visible =
    menu.menuMode === 'overlay'
      ? menu.overlayMenuActive
      : desktop
        ? !menu.staticMenuDesktopInactive
        : menu.staticMenuMobileActive;
  const pushesContent = menu.menuMode === 'static' && desktop && !menu.staticMenuDesktopInactive;

  // A click outside the sidebar closes the overlay or mobile menu.
  useEffect(() => {
    if (!floating) return;
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node;
      if (sidebar.current?.contains(target) || toggle.current?.contains(target)) return;
      dispatch({ type: 'outside-click' });
    };
    // Escape closes it as it closes a dialog, and like a dialog gives focus back to the button that opened it:
    // the closed sidebar turns inert, which would otherwise drop the focus to <body>.
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      if (sidebar.current?.contains(document.activeElement)) toggle.current?.focus();
      dispatch({ type: 'dismiss' });
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [floating]);

  // The floating menu comes after the whole top bar in the tab order: opening it takes the focus to its first
  // item, so a keyboard user does not walk the top bar again to reach it.
  const opened = floating && visible;
  useEffect(() => {
    if (opened) sidebar.current?.querySelector<HTMLElement>('a[href]')?.focus();
  }, [opened]);

  // Toasts are drawn at the document's root, outside this layout: they learn the bar's height from the root.
  useEffect(() => {
    const root = document.documentElement;
    root.style.setProperty('--app-bottom-inset', `${bottomInset}px`);
    return () => {
      root.style.removeProperty('--app-bottom-inset');
    };
  }, [bottomInset]);

  // The phone menu does not outlive the phone layout: grown to desktop width, its mask would block every click.
  useEffect(() => {
    if (desktop && menu.staticMenuMobileActive) dispatch({ type: 'dismiss' });
  }, [desktop, menu.staticMenuMobileActive]);

  return (
    <TooltipProvider delayDuration={300}>
      <div
        className="min-h-dvh"
        style={{ '--app-bottom-inset': `${bottomInset}px` } as CSSProperties}
        data-testid="app-layout"
        data-menu-mode={menu.menuMode}
        data-mobile={isMobile(width)}
        data-sidebar-active={floating}
      >
        {/* The first stop of the tab order, above the page until focused. It moves the focus itself: the hash would
            reach the router's history. */}
        <a
          href={`#${MAIN_ID}`}
          onClick={(event) => {
            event.preventDefault();
            main.current?.focus();
          }}
          className="fixed top-3 left-3 z-[1100] -translate-y-[200%] rounded-md bg-primary px-4 py-2 font-medium text-primary-foreground text-sm outline-none ring-ring/50 focus:translate-y-0 focus-visible:ring-[3px]"
          data-testid="skip-to-content"
        >
          <Trans>Skip to content</Trans>
        </a>
        <AppTopbar
          ref={toggle}
          menuId={menuId}
          menuExpanded={visible}
          onMenuToggle={() => dispatch({ type: 'toggle', windowWidth: window.innerWidth })}
        />
        {/* The id for the toggle's aria-controls: AppSidebar takes no id of its own. */}
        <div id={menuId}>
          <AppSidebar
            ref={sidebar}
            visible={visible}
            floating={opened}
            onChoose={(item) => {
              // A floating menu closes on a choice and turns inert: the focus goes on to the page it opens
              // rather than dropping to <body>.
              if (opened && sidebar.current?.contains(document.activeElement)) {
                main.current?.focus({ preventScroll: true });
              }
              dispatch({ type: 'choose', item, windowWidth: window.innerWidth });
            }}
          />
        </div>
        {opened ? (
          <div
            className="fixed inset-x-0 top-16 bottom-[var(--app-bottom-inset)] z-[999] animate-fade-in bg-black/50"
            aria-hidden
          />
        ) : null}
        <main
          ref={main}
          id={MAIN_ID}
          tabIndex={-1}
          className={cn(
            'min-h-dvh pt-16 pb-[var(--app-bottom-inset)] outline-none transition-[margin] duration-200',
            pushesContent && 'ml-72',
          )}
        >
          <div className="mx-auto max-w-6xl p-4 sm:p-6 lg:p-8">
            <Outlet />
          </div>
        </main>
        <div ref={bottom} className="fixed inset-x-0 bottom-0 z-[1000]" data-testid="app-bottom-bar">
          {bottomBar}
        </div>
      </div>
    </TooltipProvider>
  );
}
