// The captcha that needs no third party: a proof-of-work challenge signed by the server (in the manner of
// ALTCHA). A client asks for a challenge, finds the number whose hash matches, and trades the solution for the
// same five fields GeeTest would give it. Schemas live in ../schemas/self-hosted-captcha.ts.
import type { TCaptchaFields } from '../schemas/captcha';
import type { TCaptchaChallenge, TCaptchaSolution } from '../schemas/self-hosted-captcha';

export interface SelfHostedCaptcha {
  createChallenge(): Promise<TCaptchaChallenge>;
  /** Checks the proof of work; returns the five fields to send with the protected call. */
  redeem(solution: TCaptchaSolution): Promise<TCaptchaFields>;
}
