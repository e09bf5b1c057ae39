// What the room's enterprise policy (./room-browser-policy.ts) cannot say, said in the profile's own preferences
// before every launch. Chromium has no policy for Web MIDI: a page asking for it (with or without system-exclusive
// messages) gets a permission bubble over the picture that no participant can answer, since input goes to the
// page, never to the browser's own UI. Blocked as default content settings, the request is refused at once, as
// the policy's Default*Setting entries refuse the others.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Chromium's content-setting values: 2 is "block". */
const BLOCK = 2;

export const ROOM_DEFAULT_CONTENT_SETTINGS = { midi: BLOCK, midi_sysex: BLOCK } as const;

type TPreferences = { profile?: { default_content_setting_values?: Record<string, unknown> } } & Record<
  string,
  unknown
>;

/**
 * Writes the room's defaults into `<profileDir>/Default/Preferences`, keeping everything else a kept profile
 * holds. A file Chromium could not read either (missing, not JSON) is replaced: Chromium would start it afresh.
 */
export async function applyRoomPreferences(profileDir: string): Promise<void> {
  const dir = join(profileDir, 'Default');
  const file = join(dir, 'Preferences');
  let preferences: TPreferences = {};
  try {
    const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) preferences = parsed as TPreferences;
  } catch {
    // none yet, or unreadable: starts from nothing
  }
  const profile = typeof preferences.profile === 'object' && preferences.profile ? preferences.profile : {};
  const defaults =
    typeof profile.default_content_setting_values === 'object' && profile.default_content_setting_values
      ? profile.default_content_setting_values
      : {};
  preferences.profile = {
    ...profile,
    default_content_setting_values: { ...defaults, ...ROOM_DEFAULT_CONTENT_SETTINGS },
  };
  await mkdir(dir, { recursive: true });
  await writeFile(file, JSON.stringify(preferences));
}
