// The stacking order: overlays (popovers) and menus at 1000, modals (dialogs and their masks) and
// tooltips at 1100. Those are the layers' places over the page; a layer opened from inside another one (a
// popover in a dialog, a tooltip on a dialog's button, a submenu) is put just above the layer it came from, or a
// menu in a dialog would open behind it. styles.css carries the same numbers for CSS.
import { createContext, type ReactNode, useContext } from 'react';

export const Z_INDEX = { overlay: 1000, menu: 1000, modal: 1100, tooltip: 1100 } as const;

export type TLayerKind = keyof typeof Z_INDEX;

/** The z-index of the layer the current component is in; 0 on the page itself. */
const EnclosingLayer = createContext(0);

/** Where a new layer of this kind goes: its own place, or just above the layer that opens it. */
export function useLayerZIndex(kind: TLayerKind): number {
  return Math.max(Z_INDEX[kind], useContext(EnclosingLayer) + 1);
}

/** Makes `zIndex` the enclosing layer of everything inside (portals included: React context follows them). */
export function Layer({ zIndex, children }: { zIndex: number; children: ReactNode }) {
  return <EnclosingLayer.Provider value={zIndex}>{children}</EnclosingLayer.Provider>;
}
