import { describe, expect, it } from 'vitest';
import {
  initialMenuState,
  isDesktop,
  isMobile,
  isSidebarActive,
  menuReducer,
  type TMenuAction,
  type TMenuState,
} from './menu-state';

const run = (actions: TMenuAction[], from: TMenuState = initialMenuState) =>
  actions.reduce(menuReducer, from);

describe('menu state machine', () => {
  it('starts with every flag off, static mode and no active item', () => {
    expect(initialMenuState).toEqual({
      menuMode: 'static',
      staticMenuDesktopInactive: false,
      overlayMenuActive: false,
      profileSidebarVisible: false,
      configSidebarVisible: false,
      staticMenuMobileActive: false,
      menuHoverActive: false,
      activeMenuItem: null,
    });
    expect(isSidebarActive(initialMenuState)).toBe(false);
  });

  it('uses 991 px as the desktop and 767 px as the mobile breakpoint', () => {
    expect([isDesktop(992), isDesktop(991)]).toEqual([true, false]);
    expect([isMobile(767), isMobile(768)]).toEqual([true, false]);
  });

  it('toggles the static desktop flag on wide windows', () => {
    const once = run([{ type: 'toggle', windowWidth: 1280 }]);
    expect(once.staticMenuDesktopInactive).toBe(true);
    expect(once.staticMenuMobileActive).toBe(false);
    expect(isSidebarActive(once)).toBe(false);
    expect(run([{ type: 'toggle', windowWidth: 1280 }], once).staticMenuDesktopInactive).toBe(false);
  });

  it('toggles the static mobile flag at 991 px and below, which makes the sidebar active', () => {
    const open = run([{ type: 'toggle', windowWidth: 991 }]);
    expect(open.staticMenuMobileActive).toBe(true);
    expect(open.staticMenuDesktopInactive).toBe(false);
    expect(isSidebarActive(open)).toBe(true);
  });

  it('flips only the overlay flag in overlay mode, whatever the width', () => {
    const overlay = run([{ type: 'set-mode', mode: 'overlay' }]);
    const open = run([{ type: 'toggle', windowWidth: 1280 }], overlay);
    expect(open.overlayMenuActive).toBe(true);
    expect(open.staticMenuDesktopInactive).toBe(false);
    expect(isSidebarActive(open)).toBe(true);
    expect(run([{ type: 'toggle', windowWidth: 400 }], open).overlayMenuActive).toBe(false);
  });

  it('closes the mobile menu after an item is chosen and remembers the item', () => {
    const chosen = run([
      { type: 'toggle', windowWidth: 390 },
      { type: 'choose', item: '/profile', windowWidth: 390 },
    ]);
    expect(chosen.staticMenuMobileActive).toBe(false);
    expect(chosen.activeMenuItem).toBe('/profile');
  });

  it('keeps the static desktop menu open after a choice', () => {
    const chosen = run([{ type: 'choose', item: '/help', windowWidth: 1280 }]);
    expect(chosen.staticMenuDesktopInactive).toBe(false);
    expect(chosen.activeMenuItem).toBe('/help');
  });

  it('closes the floating menu on Escape, keeping the desktop menu as it was', () => {
    const dismissed = run([{ type: 'toggle', windowWidth: 390 }, { type: 'dismiss' }]);
    expect(isSidebarActive(dismissed)).toBe(false);
    expect(dismissed.staticMenuDesktopInactive).toBe(false);
  });

  it('closes the overlay or mobile menu on a click outside', () => {
    const mobile = run([{ type: 'toggle', windowWidth: 390 }, { type: 'outside-click' }]);
    expect(isSidebarActive(mobile)).toBe(false);
    const overlay = run([
      { type: 'set-mode', mode: 'overlay' },
      { type: 'toggle', windowWidth: 1280 },
      { type: 'outside-click' },
    ]);
    expect(isSidebarActive(overlay)).toBe(false);
  });

  it('leaves the state untouched when an outside click has nothing to close', () => {
    expect(menuReducer(initialMenuState, { type: 'outside-click' })).toBe(initialMenuState);
  });
});
