import { describe, expect, it } from 'vitest';
import { isBrowserUi, strayReason, type TTargetInfo } from './tabs';

const target = (overrides: Partial<TTargetInfo>): TTargetInfo => ({
  targetId: 'T1',
  type: 'page',
  url: 'about:blank',
  browserContextId: 'room',
  ...overrides,
});

describe('strayReason', () => {
  it('closes a new page on a browser-internal or local-file address', () => {
    for (const url of [
      'chrome://newtab/',
      'chrome://settings/clearBrowserData',
      'devtools://devtools/bundled/inspector.html',
      'chrome-extension://abc/index.html',
      'chrome-untrusted://print/',
      'file:///etc/passwd',
      'view-source:https://example.com/',
    ]) {
      expect(strayReason(target({ url }), undefined, 'room'), url).toBeTypeOf('string');
    }
  });

  it('closes a page of another profile (incognito, guest), whatever its address', () => {
    expect(
      strayReason(target({ url: 'https://example.com/', browserContextId: 'incognito' }), undefined, 'room'),
    ).toBeTypeOf('string');
  });

  it('leaves web pages, the blank page and browser UI alone', () => {
    expect(strayReason(target({ url: 'https://example.com/' }), undefined, 'room')).toBeUndefined();
    expect(strayReason(target({ url: 'about:blank' }), undefined, 'room')).toBeUndefined();
    expect(strayReason(target({ url: '' }), undefined, undefined)).toBeUndefined();
    expect(
      strayReason(
        target({ type: 'browser_ui', url: 'chrome://omnibox-popup.top-chrome/' }),
        undefined,
        'room',
      ),
    ).toBeUndefined();
    expect(
      strayReason(target({ type: 'iframe', url: 'chrome-extension://pdf/' }), undefined, 'room'),
    ).toBeUndefined();
  });

  it('closes a tab that never showed a page, and leaves a room tab whose link was refused to its own guard', () => {
    const url = 'file:///etc/passwd';
    expect(strayReason(target({ url }), { shown: false }, 'room')).toBeTypeOf('string');
    expect(strayReason(target({ url }), { shown: true }, 'room')).toBeUndefined();
  });
});

describe('isBrowserUi', () => {
  it('knows the omnibox popup also while it is reported as a page (a browser launching on a busy machine)', () => {
    for (const url of [
      'chrome://omnibox-popup.top-chrome/',
      'chrome://omnibox-popup.top-chrome/omnibox_popup_aim.html',
    ]) {
      expect(isBrowserUi(target({ type: 'page', url })), url).toBe(true);
      expect(isBrowserUi(target({ type: 'browser_ui', url })), url).toBe(true);
    }
  });

  it('takes tabs for tabs: web pages, the blank page, error pages and blocked chrome:// pages', () => {
    for (const url of [
      'https://example.com/',
      'about:blank',
      'chrome-error://chromewebdata/',
      'chrome://newtab/',
    ]) {
      expect(isBrowserUi(target({ url })), url).toBe(false);
    }
  });
});
