import type { CaptchaVerifier, OnceStore, SelfHostedCaptcha, TCaptchaProvider } from '@rooms/api';
import { GeetestCaptcha } from './geetest-captcha';
import { SelfHostedCaptchaService } from './self-hosted-captcha';

export interface TCaptchaConfig {
  provider: TCaptchaProvider;
  /** Signs self-hosted challenges and pass tokens. */
  secret: string;
  /** The self-hosted challenges' difficulty: the largest secret number. */
  maxNumber?: number;
  geetestId?: string;
  geetestKey?: string;
  geetestApiServer?: string;
}

export function createCaptcha(
  config: TCaptchaConfig,
  onceStore: OnceStore,
): { verifier: CaptchaVerifier; selfHosted: SelfHostedCaptcha | null } {
  if (config.provider === 'self-hosted') {
    const captcha = new SelfHostedCaptchaService({
      secret: config.secret,
      onceStore,
      maxnumber: config.maxNumber,
    });
    return { verifier: captcha, selfHosted: captcha };
  }
  // Refuse to start rather than run with a captcha that rejects every request.
  if (!config.geetestId || !config.geetestKey) {
    throw new Error('The GeeTest captcha needs both a captcha id and a captcha key');
  }
  const verifier = new GeetestCaptcha({
    captchaId: config.geetestId,
    captchaKey: config.geetestKey,
    onceStore,
    apiServer: config.geetestApiServer,
  });
  return { verifier, selfHosted: null };
}
