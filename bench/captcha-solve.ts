// How long a client takes to solve a self-hosted captcha challenge at the server's default difficulty. The solver
// is the same WebCrypto code the browser's Web Worker runs; browsers are usually a little slower than Node.
// Run: npx tsx bench/captcha-solve.ts [challenges=30]
import { solveChallenge } from '@rooms/api/captcha';
import {
  DEFAULT_MAXNUMBER,
  SelfHostedCaptchaService,
} from '../apps/server/src/services/captcha/self-hosted-captcha';
import { MemoryOnceStore } from '../apps/server/src/testing/memory-once-store';

const runs = Number(process.argv[2] ?? 30);
const captcha = new SelfHostedCaptchaService({
  secret: 'bench secret, not used anywhere else',
  onceStore: new MemoryOnceStore(),
});

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

// One unmeasured solve warms up the JIT and the crypto thread pool.
await solveChallenge(await captcha.createChallenge());

const times: number[] = [];
for (let i = 0; i < runs; i++) {
  const challenge = await captcha.createChallenge();
  const started = performance.now();
  const solution = await solveChallenge(challenge);
  times.push(performance.now() - started);
  if (!solution) throw new Error('a challenge had no solution');
  await captcha.redeem(solution);
}
times.sort((a, b) => a - b);

const ms = (value: number) => `${value.toFixed(0)} ms`;
console.log(`captcha solve, maxnumber ${DEFAULT_MAXNUMBER}, ${runs} challenges, Node ${process.version}`);
console.log(
  `median ${ms(percentile(times, 50))}  p95 ${ms(percentile(times, 95))}  max ${ms(times.at(-1) ?? 0)}`,
);
