// The viewer's choice of picture layer (the room menu's Quality): Auto follows the link, High, Medium or Low stay
// whatever it does. One choice for every room, kept in this browser like the sound's volume (room-sound.ts).
import {
  type TStreamLayer,
  type TStreamLayerChoice,
  type TStreamLayerName,
  ZStreamLayerChoice,
} from '@rooms/api/room-protocol';

export const LAYER_CHOICE_KEY = 'rooms.layer';

/** The kept choice; 'auto' when none was made, or storage is refused or holds something else. */
export function storedLayerChoice(): TStreamLayerChoice {
  let value: string | null = null;
  try {
    value = globalThis.localStorage?.getItem(LAYER_CHOICE_KEY) ?? null;
  } catch {
    // Storage refused (private modes): nothing was kept.
  }
  const parsed = ZStreamLayerChoice.safeParse(value);
  return parsed.success ? parsed.data : 'auto';
}

export function storeLayerChoice(choice: TStreamLayerChoice): void {
  try {
    if (choice === 'auto') globalThis.localStorage?.removeItem(LAYER_CHOICE_KEY);
    else globalThis.localStorage?.setItem(LAYER_CHOICE_KEY, choice);
  } catch {
    // Not kept: this visit still uses it.
  }
}

/** A layer's size as a person reads it, e.g. 854×480. */
export function layerSize(layer: Pick<TStreamLayer, 'width' | 'height'>): string {
  return `${layer.width}×${layer.height}`;
}

/** The layer of that name in the stream's ladder, if it has one. */
export function findLayer(
  layers: readonly TStreamLayer[],
  name: TStreamLayerName | null | undefined,
): TStreamLayer | undefined {
  return name ? layers.find((layer) => layer.name === name) : undefined;
}
