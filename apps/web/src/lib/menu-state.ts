// The layout's menu state machine: the interface state, its transitions and the breakpoints they follow.
export const DESKTOP_BREAKPOINT = 991;
export const MOBILE_BREAKPOINT = 767;

export type TMenuMode = 'static' | 'overlay';

export interface TMenuState {
  menuMode: TMenuMode;
  staticMenuDesktopInactive: boolean;
  overlayMenuActive: boolean;
  profileSidebarVisible: boolean;
  configSidebarVisible: boolean;
  staticMenuMobileActive: boolean;
  menuHoverActive: boolean;
  activeMenuItem: string | null;
}

export const initialMenuState: TMenuState = {
  menuMode: 'static',
  staticMenuDesktopInactive: false,
  overlayMenuActive: false,
  profileSidebarVisible: false,
  configSidebarVisible: false,
  staticMenuMobileActive: false,
  menuHoverActive: false,
  activeMenuItem: null,
};

export type TMenuAction =
  | { type: 'toggle'; windowWidth: number }
  /** An item was chosen; on small screens the menu closes. */
  | { type: 'choose'; item: string; windowWidth: number }
  /** A click landed outside the sidebar and the top bar's toggle. */
  | { type: 'outside-click' }
  /** Escape was pressed, or the window grew past the phone layout the floating menu was opened in. */
  | { type: 'dismiss' }
  | { type: 'set-mode'; mode: TMenuMode };

export function isDesktop(windowWidth: number): boolean {
  return windowWidth > DESKTOP_BREAKPOINT;
}

export function isMobile(windowWidth: number): boolean {
  return windowWidth <= MOBILE_BREAKPOINT;
}

/** The sidebar floats over the page (with a mask) when the overlay or the mobile menu is open. */
export function isSidebarActive(state: TMenuState): boolean {
  return state.overlayMenuActive || state.staticMenuMobileActive;
}

function closeFloating(state: TMenuState): TMenuState {
  if (!state.overlayMenuActive && !state.staticMenuMobileActive && !state.menuHoverActive) return state;
  return { ...state, overlayMenuActive: false, staticMenuMobileActive: false, menuHoverActive: false };
}

export function menuReducer(state: TMenuState, action: TMenuAction): TMenuState {
  switch (action.type) {
    case 'toggle':
      if (state.menuMode === 'overlay') return { ...state, overlayMenuActive: !state.overlayMenuActive };
      if (isDesktop(action.windowWidth)) {
        return { ...state, staticMenuDesktopInactive: !state.staticMenuDesktopInactive };
      }
      return { ...state, staticMenuMobileActive: !state.staticMenuMobileActive };
    case 'choose': {
      const chosen = { ...state, activeMenuItem: action.item };
      return isDesktop(action.windowWidth) && state.menuMode === 'static' ? chosen : closeFloating(chosen);
    }
    case 'outside-click':
    case 'dismiss':
      return closeFloating(state);
    case 'set-mode':
      return { ...closeFloating(state), menuMode: action.mode };
  }
}
