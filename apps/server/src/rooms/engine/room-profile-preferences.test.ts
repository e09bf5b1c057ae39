import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyRoomPreferences } from './room-profile-preferences';

let profile: string;
const preferences = async () => JSON.parse(await readFile(join(profile, 'Default', 'Preferences'), 'utf8'));

beforeEach(async () => {
  profile = await mkdtemp(join(tmpdir(), 'room-preferences-'));
});
afterEach(async () => {
  await rm(profile, { recursive: true, force: true });
});

describe('the room profile preferences', () => {
  it('block Web MIDI in a new profile', async () => {
    await applyRoomPreferences(profile);
    expect((await preferences()).profile.default_content_setting_values).toEqual({ midi: 2, midi_sysex: 2 });
  });

  it('keep everything else a kept profile holds, and win over an earlier allow', async () => {
    await mkdir(join(profile, 'Default'));
    await writeFile(
      join(profile, 'Default', 'Preferences'),
      JSON.stringify({
        homepage: 'https://example.com/',
        profile: { name: 'Room', default_content_setting_values: { midi_sysex: 1, cookies: 1 } },
      }),
    );
    await applyRoomPreferences(profile);
    expect(await preferences()).toEqual({
      homepage: 'https://example.com/',
      profile: { name: 'Room', default_content_setting_values: { midi: 2, midi_sysex: 2, cookies: 1 } },
    });
  });

  it('replace a file Chromium could not read either', async () => {
    await mkdir(join(profile, 'Default'));
    await writeFile(join(profile, 'Default', 'Preferences'), '{ not json');
    await applyRoomPreferences(profile);
    expect((await preferences()).profile.default_content_setting_values.midi).toBe(2);
  });
});
