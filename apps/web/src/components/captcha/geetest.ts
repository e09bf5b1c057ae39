// Loads GeeTest v4 (https://static.geetest.com/v4/gt4.js) in "bind" mode: the page shows the puzzle on demand and
// the captcha counts as done only when GeeTest reports success with a validate result.
import type { TCaptchaFields } from '@rooms/api/client';

export interface TGeetestCaptcha {
  showCaptcha(): void;
  reset(): void;
  destroy(): void;
  getValidate(): TCaptchaFields | false | undefined;
  onReady(callback: () => void): TGeetestCaptcha;
  onSuccess(callback: () => void): TGeetestCaptcha;
  onError(callback: (error: { msg?: string }) => void): TGeetestCaptcha;
  onClose(callback: () => void): TGeetestCaptcha;
}

type TInitGeetest4 = (
  config: { captchaId: string; product: 'bind'; language?: string },
  callback: (captcha: TGeetestCaptcha) => void,
) => void;

declare global {
  interface Window {
    initGeetest4?: TInitGeetest4;
  }
}

const SCRIPT_URL = 'https://static.geetest.com/v4/gt4.js';
let loading: Promise<TInitGeetest4> | null = null;

function loadScript(): Promise<TInitGeetest4> {
  if (window.initGeetest4) return Promise.resolve(window.initGeetest4);
  loading ??= new Promise<TInitGeetest4>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = SCRIPT_URL;
    script.async = true;
    script.onload = () =>
      window.initGeetest4 ? resolve(window.initGeetest4) : reject(new Error('verification failed'));
    script.onerror = () => {
      loading = null;
      reject(new Error('verification failed'));
    };
    document.head.append(script);
  });
  return loading;
}

export async function createGeetest(captchaId: string, language: string): Promise<TGeetestCaptcha> {
  const init = await loadScript();
  return new Promise((resolve) => {
    init({ captchaId, product: 'bind', language: language.startsWith('zh') ? 'zho' : 'eng' }, resolve);
  });
}
