// One captcha for one form. A solved captcha is good for exactly one protected call: `consume()` hands its five
// fields over and forgets them; `renew()` starts the next one when the form needs another.
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import type { TCaptchaFields } from '@rooms/api/client';
import { showToast } from '@rooms/ui/toaster';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorText } from '../../lib/messages';
import { CAPTCHA_TOAST_LIFE_MS } from '../../lib/notify';
import { trpc, trpcClient } from '../../lib/trpc';
import type { TChallenge, TSolution, TWorkerReply } from './captcha.worker';
import { createGeetest, type TGeetestCaptcha } from './geetest';

export type TCaptchaStatus = 'idle' | 'solving' | 'done' | 'error';

function solveInWorker(challenge: TChallenge, signal: AbortSignal): Promise<TSolution | null> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./captcha.worker.ts', import.meta.url), { type: 'module' });
    const stop = () => {
      worker.terminate();
      reject(signal.reason);
    };
    signal.addEventListener('abort', stop, { once: true });
    worker.onmessage = (event: MessageEvent<TWorkerReply>) => {
      signal.removeEventListener('abort', stop);
      worker.terminate();
      if (event.data.ok) resolve(event.data.solution);
      else reject(new Error(event.data.error));
    };
    worker.onerror = () => {
      signal.removeEventListener('abort', stop);
      worker.terminate();
      reject(new Error('verification failed'));
    };
    worker.postMessage(challenge);
  });
}

export interface TCaptcha {
  status: TCaptchaStatus;
  provider: 'self-hosted' | 'geetest' | undefined;
  done: boolean;
  start(): void;
  /** The five fields of the solved captcha, once; null when none is ready. */
  consume(): TCaptchaFields | null;
  /** Starts a fresh captcha (self-hosted solves it right away; GeeTest waits for the user's click). */
  renew(): void;
}

export function useCaptcha(): TCaptcha {
  const { i18n } = useLingui();
  const config = useQuery({ ...trpc.captcha.config.queryOptions(), staleTime: Number.POSITIVE_INFINITY });
  const provider = config.data?.provider;
  const [status, setStatus] = useState<TCaptchaStatus>('idle');
  const fields = useRef<TCaptchaFields | null>(null);
  const running = useRef<AbortController | null>(null);
  const geetest = useRef<TGeetestCaptcha | null>(null);

  const fail = useCallback(
    (error: unknown) => {
      setStatus('error');
      showToast({
        severity: 'error',
        summary: i18n._(msg`Verification`),
        detail: errorText(i18n, error, 'verification failed'),
        life: CAPTCHA_TOAST_LIFE_MS,
      });
    },
    [i18n],
  );

  const solveSelfHosted = useCallback(async () => {
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    fields.current = null;
    setStatus('solving');
    try {
      const challenge = await trpcClient.captcha.challenge.query(undefined, { signal: controller.signal });
      const solution = await solveInWorker(challenge, controller.signal);
      if (!solution) throw new Error('verification failed');
      const result = await trpcClient.captcha.verify.mutate(solution, { signal: controller.signal });
      if (controller.signal.aborted) return;
      fields.current = result;
      setStatus('done');
    } catch (error) {
      if (!controller.signal.aborted) fail(error);
    }
  }, [fail]);

  const openGeetest = useCallback(async () => {
    if (!config.data) return;
    try {
      if (!geetest.current) {
        const captcha = await createGeetest(config.data.captchaId, i18n.locale);
        captcha
          .onSuccess(() => {
            const result = captcha.getValidate();
            if (result) {
              fields.current = result;
              setStatus('done');
            } else {
              fail(new Error('verification failed'));
            }
          })
          .onError((error) => fail(new Error(error.msg || 'verification failed')))
          .onClose(() => setStatus((current) => (current === 'solving' ? 'idle' : current)));
        geetest.current = captcha;
      }
      setStatus('solving');
      geetest.current.showCaptcha();
    } catch (error) {
      fail(error);
    }
  }, [config.data, fail, i18n.locale]);

  useEffect(
    () => () => {
      running.current?.abort();
      geetest.current?.destroy();
    },
    [],
  );

  const start = useCallback(() => {
    if (status === 'solving' || status === 'done' || !provider) return;
    if (provider === 'geetest') void openGeetest();
    else void solveSelfHosted();
  }, [openGeetest, provider, solveSelfHosted, status]);

  const consume = useCallback(() => {
    const taken = fields.current;
    fields.current = null;
    setStatus('idle');
    geetest.current?.reset();
    return taken;
  }, []);

  const renew = useCallback(() => {
    fields.current = null;
    geetest.current?.reset();
    if (provider === 'self-hosted') void solveSelfHosted();
    else setStatus('idle');
  }, [provider, solveSelfHosted]);

  return { status, provider, done: status === 'done', start, consume, renew };
}
