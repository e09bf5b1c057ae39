import { describe, expect, it } from 'vitest';
import { ROOM_BROWSER_POLICY, roomBrowserPolicyJson } from './room-browser-policy';
import { BLOCKED_SCHEMES } from './url-policy';

describe('the room browser policy', () => {
  it('blocks every scheme the tab guard closes but chrome-extension: (the PDF viewer is one)', () => {
    for (const scheme of BLOCKED_SCHEMES.filter((blocked) => blocked !== 'chrome-extension:')) {
      expect(
        ROOM_BROWSER_POLICY.URLBlocklist.some((pattern) => pattern.startsWith(scheme)),
        scheme,
      ).toBe(true);
    }
  });

  it('locks the browser UI a room must not reach', () => {
    expect(ROOM_BROWSER_POLICY).toMatchObject({
      AllowFileSelectionDialogs: false,
      DownloadRestrictions: 0,
      PrintingEnabled: false,
      IncognitoModeAvailability: 1,
      BrowserGuestModeEnabled: false,
      BrowserAddPersonEnabled: false,
      PasswordManagerEnabled: false,
      TaskManagerEndProcessEnabled: false,
      BrowserSignin: 0,
      SyncDisabled: true,
    });
  });

  it('leaves developer tools to the other layers: either policy that names them refuses Playwright’s CDP too', () => {
    expect(ROOM_BROWSER_POLICY).not.toHaveProperty('DeveloperToolsAvailability');
    expect(ROOM_BROWSER_POLICY).not.toHaveProperty('DeveloperToolsAvailabilityBlocklist');
  });

  it('is the JSON file Chromium reads', () => {
    expect(JSON.parse(roomBrowserPolicyJson())).toEqual(ROOM_BROWSER_POLICY);
  });
});
