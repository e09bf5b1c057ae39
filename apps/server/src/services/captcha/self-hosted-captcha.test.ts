import type { TCaptchaFields, TCaptchaSolution } from '@rooms/api';
import { sha256Hex, solveChallenge } from '@rooms/api/captcha';
import { describe, expect, it } from 'vitest';
import { appCodeOf } from '../../testing/app-code-of';
import { MemoryOnceStore } from '../../testing/memory-once-store';
import { SelfHostedCaptchaService } from './self-hosted-captcha';

const SECRET = 'a test secret of at least sixteen characters';

/** A captcha whose clock the test moves; small difficulty keeps the suite fast. */
function setup(options: { secret?: string } = {}) {
  let now = new Date('2026-03-01T12:00:00Z');
  const captcha = new SelfHostedCaptchaService({
    secret: options.secret ?? SECRET,
    onceStore: new MemoryOnceStore({ now: () => now.getTime() }),
    maxnumber: 2000,
    now: () => now,
  });
  const advance = (seconds: number) => {
    now = new Date(now.getTime() + seconds * 1000);
  };
  return { captcha, advance };
}

async function solved(captcha: SelfHostedCaptchaService): Promise<TCaptchaSolution> {
  const solution = await solveChallenge(await captcha.createChallenge());
  if (!solution) throw new Error('the challenge had no solution');
  return solution;
}

describe('self-hosted captcha', () => {
  it('issues a challenge that hashes the salt and a number within maxnumber', async () => {
    const { captcha } = setup();
    const challenge = await captcha.createChallenge();
    const solution = await solveChallenge(challenge);
    expect(solution).not.toBeNull();
    expect(solution?.number).toBeLessThanOrEqual(challenge.maxnumber);
    expect(await sha256Hex(`${challenge.salt}${solution?.number}`)).toBe(challenge.challenge);
    expect(challenge.salt.endsWith(`?expires=${challenge.expires_at}`)).toBe(true);
  });

  it('accepts a solved, redeemed captcha once and answers pass_token used the second time', async () => {
    const { captcha } = setup();
    const fields = await captcha.redeem(await solved(captcha));
    expect(fields.captcha_id).toBe(captcha.captchaId);
    await expect(captcha.verify(fields)).resolves.toBeUndefined();
    expect(await appCodeOf(captcha.verify(fields))).toBe('PASS_TOKEN_USED');
  });

  it.each<[string, (fields: TCaptchaFields) => TCaptchaFields]>([
    ['captcha_output', (f) => ({ ...f, captcha_output: String(Number(f.captcha_output) + 1) })],
    [
      'pass_token',
      (f) => ({ ...f, pass_token: `${f.pass_token.slice(0, -1)}${f.pass_token.endsWith('0') ? '1' : '0'}` }),
    ],
    ['captcha_id', (f) => ({ ...f, captcha_id: 'someone-else' })],
    ['lot_number', (f) => ({ ...f, lot_number: 'f'.repeat(64) })],
    ['gen_time', (f) => ({ ...f, gen_time: String(Number(f.gen_time) + 60) })],
  ])('refuses fields with a tampered %s', async (_name, tamper) => {
    const { captcha } = setup();
    const fields = await captcha.redeem(await solved(captcha));
    expect(await appCodeOf(captcha.verify(tamper(fields)))).toBe('CAPTCHA_FAILED');
    // The genuine fields still work: a refused forgery must not burn the token.
    await expect(captcha.verify(fields)).resolves.toBeUndefined();
  });

  it('refuses fields once their validity window has passed', async () => {
    const { captcha, advance } = setup();
    const fields = await captcha.redeem(await solved(captcha));
    advance(10 * 60 + 1);
    expect(await appCodeOf(captcha.verify(fields))).toBe('CAPTCHA_FAILED');
  });

  it('refuses fields signed with another secret', async () => {
    const other = setup({ secret: 'another secret, also long enough' }).captcha;
    const fields = await other.redeem(await solved(other));
    expect(await appCodeOf(setup().captcha.verify(fields))).toBe('CAPTCHA_FAILED');
  });

  it('refuses a solution with a forged signature', async () => {
    const { captcha } = setup();
    const solution = await solved(captcha);
    const forged = { ...solution, signature: '0'.repeat(64) };
    expect(await appCodeOf(captcha.redeem(forged))).toBe('CAPTCHA_FAILED');
  });

  it('refuses a self-made challenge signed with nothing the server knows', async () => {
    const { captcha } = setup();
    const salt = 'cafe?expires=4102444800';
    const challenge = await sha256Hex(`${salt}7`);
    const solution = { captcha_id: captcha.captchaId, salt, challenge, signature: challenge, number: 7 };
    expect(await appCodeOf(captcha.redeem(solution))).toBe('CAPTCHA_FAILED');
  });

  it('refuses a solution after the challenge expired', async () => {
    const { captcha, advance } = setup();
    const solution = await solved(captcha);
    advance(10 * 60 + 1);
    expect(await appCodeOf(captcha.redeem(solution))).toBe('CAPTCHA_FAILED');
  });

  it('refuses a salt whose expiry was pushed back', async () => {
    const { captcha, advance } = setup();
    const solution = await solved(captcha);
    advance(10 * 60 + 1);
    const salt = solution.salt.replace(/\d+$/, (expires) => String(Number(expires) + 3600));
    expect(await appCodeOf(captcha.redeem({ ...solution, salt }))).toBe('CAPTCHA_FAILED');
  });

  it('refuses a wrong number', async () => {
    const { captcha } = setup();
    const solution = await solved(captcha);
    expect(await appCodeOf(captcha.redeem({ ...solution, number: solution.number + 1 }))).toBe(
      'CAPTCHA_FAILED',
    );
  });

  it('refuses a solution for another captcha_id', async () => {
    const { captcha } = setup();
    const solution = await solved(captcha);
    expect(await appCodeOf(captcha.redeem({ ...solution, captcha_id: 'geetest' }))).toBe('CAPTCHA_FAILED');
  });

  it('redeems a challenge only once', async () => {
    const { captcha } = setup();
    const solution = await solved(captcha);
    await captcha.redeem(solution);
    expect(await appCodeOf(captcha.redeem(solution))).toBe('CAPTCHA_FAILED');
  });

  it('stops solving when the signal aborts', async () => {
    const { captcha } = setup();
    const challenge = await captcha.createChallenge();
    const controller = new AbortController();
    controller.abort(new Error('user left the page'));
    await expect(solveChallenge(challenge, { signal: controller.signal })).rejects.toThrow(
      'user left the page',
    );
  });
});

describe('memory once store', () => {
  it('claims a key once until it expires, then forgets it', async () => {
    let now = 0;
    const store = new MemoryOnceStore({ now: () => now });
    expect(await store.claim('k', new Date(1000))).toBe(true);
    expect(await store.claim('k', new Date(1000))).toBe(false);
    now = 1000;
    expect(await store.claim('k', new Date(2000))).toBe(true);
    expect(await store.claim('other', new Date(2000))).toBe(true);
    now = 120_000;
    await store.claim('fresh', new Date(200_000));
    expect(store.size).toBe(1);
  });
});
