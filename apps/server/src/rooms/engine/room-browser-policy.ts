// The Chromium enterprise policy every room browser runs under, as the JSON object Chromium reads from
// /etc/chromium/policies/managed/*.json (the room sandbox mounts it there). It is the layer under the key filter
// and the tab guard: whatever browser UI a shortcut, a context menu or a page could still reach is locked here, so
// a participant stays in the page. Checked against Chromium 156 driven by Playwright over --remote-debugging-pipe:
// every entry shows as valid in chrome://policy and leaves rooms working (the kiosk and engine tests pass with it).

/** Schemes no page, tab or window of a room may show (the tab guard closes the same, ./url-policy). */
export const ROOM_URL_BLOCKLIST = [
  'chrome://*',
  'chrome-untrusted://*',
  // Not chrome-extension://*: it also blocks Chromium's PDF viewer (a component extension; URLAllowlist does not
  // bring it back), and a PDF link would show an error page. No other extension can exist (none is installable,
  // see ExtensionInstallBlocklist), and a chrome-extension: tab or window is still closed by the tab guard.
  'devtools://*',
  'file://*',
  'view-source:*',
  // Not mailto:, tel: and the like: blocked, a click on such a link replaces the page with an error page, while
  // unblocked it does nothing in a room browser (no handler).
] as const;

export const ROOM_BROWSER_POLICY = {
  URLBlocklist: [...ROOM_URL_BLOCKLIST],
  // The New Tab page is a chrome:// page; anything that still opens one gets a blank page.
  NewTabPageLocation: 'about:blank',
  // DeveloperToolsAvailability is left out on purpose: at 2 (not allowed), as with DeveloperToolsAvailabilityBlocklist
  // ['*'], Chromium judges the server's CDP sessions as it judges developer tools, and Target.attachToTarget on any
  // page answers "Not allowed" (over --remote-debugging-pipe as over a port): Playwright never gets the room's first
  // page. Devtools stay shut by the other layers (./devtools.security.test.ts): F12 and Ctrl+Shift+I/J/C never
  // reach the browser (./key-filter); the kiosk window shows no context menu and refuses the devtools commands;
  // 'devtools://*' above keeps the DevTools front end itself from opening (F12 reaching a headless room browser
  // opens nothing with it, a devtools:// target without it), and the tab guard closes a devtools: page.

  // Native file choosers would show the server's files to everyone; uploads and "Save as" are refused instead.
  AllowFileSelectionDialogs: false,
  // 0 = no restriction by type: every download lands in the run's own downloads directory (the engine's CDP
  // session sets it, ./downloads.ts), bounded in size, and is only ever offered to the controller, never opened.
  DownloadRestrictions: 0,
  // The print preview is browser UI with a "Save as PDF" file dialog behind it.
  PrintingEnabled: false,
  // 1 = incognito disabled: an incognito window is another profile the room does not follow.
  IncognitoModeAvailability: 1,
  BrowserGuestModeEnabled: false,
  BrowserAddPersonEnabled: false,
  // 0 = sign-in disabled; no account, no sync, nothing of a participant stays in a shared profile.
  BrowserSignin: 0,
  SyncDisabled: true,
  // A shared browser must not offer one participant's passwords, addresses or cards to the next.
  PasswordManagerEnabled: false,
  PasswordLeakDetectionEnabled: false,
  AutofillAddressEnabled: false,
  AutofillCreditCardEnabled: false,
  PaymentMethodQueryEnabled: false,
  // The task manager (Shift+Esc) could end the room's own processes.
  TaskManagerEndProcessEnabled: false,
  // Bookmarks and extensions are browser UI and profile state a room does not offer; an extension installed from
  // the Web Store (a web page) would run with powers over every page of the room.
  EditBookmarksEnabled: false,
  BookmarkBarEnabled: false,
  ExtensionInstallBlocklist: ['*'],
  BlockExternalExtensions: true,
  // Bubbles and choosers drawn by the browser over the page: translation offers, Cast, screen-share and device
  // pickers, permission prompts nobody in the room can answer in the page (local fonts and window management
  // among them; Web MIDI has no policy and is refused by the profile's preferences, ./room-profile-preferences).
  TranslateEnabled: false,
  EnableMediaRouter: false,
  ScreenCaptureAllowed: false,
  AudioCaptureAllowed: false,
  VideoCaptureAllowed: false,
  DefaultNotificationsSetting: 2,
  DefaultGeolocationSetting: 2,
  // The room's clipboard is shared by every controller: a page may not read what someone copied before.
  DefaultClipboardSetting: 2,
  DefaultWebBluetoothGuardSetting: 2,
  DefaultWebUsbGuardSetting: 2,
  DefaultSerialGuardSetting: 2,
  DefaultWebHidGuardSetting: 2,
  DefaultFileSystemReadGuardSetting: 2,
  DefaultFileSystemWriteGuardSetting: 2,
  DefaultLocalFontsSetting: 2,
  DefaultWindowManagementSetting: 2,
  DefaultBrowserSettingEnabled: false,
  // Network: the second layer under the room's network namespace (the egress proxy is the only way out).
  WebRtcIPHandling: 'disable_non_proxied_udp',
  QuicAllowed: false,
} as const;

export type TRoomBrowserPolicy = typeof ROOM_BROWSER_POLICY;

/** The policy as the file Chromium reads. */
export function roomBrowserPolicyJson(): string {
  return `${JSON.stringify(ROOM_BROWSER_POLICY, null, 2)}\n`;
}
