// The driver's keys on the picture, and the way out of it. Every key goes to the room's page, Tab and Escape
// included, so the page's forms and dialogs work as they would on the driver's own screen; Escape then Tab (or
// Shift+Tab) leaves the picture for the rest of the room instead, as it leaves a code editor that keeps Tab
// (CodeMirror's documented way out). Escape still reaches the page, and only a Tab straight after it is taken.
// Other ways out cost more: Ctrl+Tab and F6 are this browser's own (the page here never sees them), Escape twice
// would take the page's second Escape, and a Ctrl or Alt chord with a letter is some page's shortcut.

/** What a key event is for: the room's page, or the browser here, to move the focus out of the picture. */
export type TPictureKey = 'page' | 'leave';

interface TKeyEvent {
  type: string;
  key: string;
  code: string;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
}

/** A key held down in the room's page, to let go of when the picture loses the focus. */
export interface THeldKey {
  key: string;
  code: string;
}

const MODIFIERS = new Set(['Shift', 'Control', 'Alt', 'Meta', 'AltGraph', 'CapsLock']);

export class PictureKeys {
  private escaped = false;
  private readonly held = new Map<string, THeldKey>();

  /** Escape was the last key pressed (modifiers aside): a Tab now leaves. */
  get armed(): boolean {
    return this.escaped;
  }

  /** Where this keydown or keyup goes; a key for the page is counted as held until it comes up. */
  route(event: TKeyEvent): TPictureKey {
    const id = event.code || event.key;
    if (event.type !== 'keydown') {
      this.held.delete(id);
      return 'page';
    }
    const chord = event.altKey || event.ctrlKey || event.metaKey;
    if (this.escaped && event.key === 'Tab' && !chord) {
      this.escaped = false;
      return 'leave';
    }
    // Shift on its way to Shift+Tab, or any other modifier alone, keeps the way out open.
    if (!MODIFIERS.has(event.key)) this.escaped = event.key === 'Escape' && !chord;
    this.held.set(id, { key: event.key, code: event.code });
    return 'page';
  }

  /** Closes the way out (a press on the picture came between Escape and Tab). */
  disarm(): void {
    this.escaped = false;
  }

  /**
   * The keys the page saw go down and not up, forgotten here: their releases land wherever the focus went, so
   * the page is told of them now (a Shift+Tab out of the picture would leave Shift held in the page).
   */
  release(): THeldKey[] {
    const held = [...this.held.values()];
    this.held.clear();
    this.escaped = false;
    return held;
  }
}
