// API speed over real HTTP: the session-checked read every page makes (userinfo) under concurrency, and the
// login call, whose cost is dominated by argon2id. Runs the real server on a throw-away embedded PostgreSQL.
//   npm run bench:api [-- seconds concurrency]
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { solveChallenge } from '@rooms/api/captcha';
import { startEmbeddedPostgres, User } from '@rooms/db';
import { buildApp } from '../apps/server/src/app';
import { parseEnv } from '../apps/server/src/env';
import { createArgon2Hasher } from '../apps/server/src/services/passwords/argon2-hasher';

const seconds = Number(process.argv[2] ?? 5);
const concurrency = Number(process.argv[3] ?? 16);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'rooms-bench-'));
  await chmod(dir, 0o755);
  const pg = await startEmbeddedPostgres({
    dataDir: join(dir, 'pg'),
    port: 5599,
    postgresFlags: ['-c', 'fsync=off'],
  });
  const app = await buildApp(
    parseEnv({
      DATABASE_URL: pg.url,
      APP_SECRET: 'b'.repeat(40),
      LOG_LEVEL: 'silent',
      SMTP_URL: 'smtp://127.0.0.1:9',
    }),
    { logger: false },
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  const em = app.orm.em.fork();
  em.create(User, {
    username: 'bench',
    email: 'bench@example.test',
    passwordHash: await createArgon2Hasher().hash('bench-secret'),
  });
  await em.flush();

  async function login(): Promise<{ token: string; ms: number }> {
    const challenge = (await (await fetch(`${base}/api/captcha/challenge`)).json()).data;
    const solution = await solveChallenge(challenge);
    const fields = (
      await (
        await fetch(`${base}/api/captcha/verify`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(solution),
        })
      ).json()
    ).data;
    const started = performance.now();
    const reply = await fetch(`${base}/api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bench@example.test', password: 'bench-secret', ...fields }),
    });
    const ms = performance.now() - started;
    const body = await reply.json();
    if (body.msg !== 'success') throw new Error(`login failed: ${body.data}`);
    return { token: body.data.token, ms };
  }

  const logins: number[] = [];
  let token = '';
  for (let i = 0; i < 8; i++) {
    const result = await login();
    logins.push(result.ms);
    token = result.token;
  }
  logins.sort((a, b) => a - b);

  const latencies: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const started = performance.now();
        const reply = await fetch(`${base}/api/user/userinfo`, { headers: { authorization: token } });
        await reply.arrayBuffer();
        if (reply.status !== 200) throw new Error(`userinfo answered ${reply.status}`);
        latencies.push(performance.now() - started);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const rss = process.memoryUsage().rss / 1024 / 1024;

  console.log(
    `login (argon2id m=19MiB t=2), ${logins.length} calls: median ${percentile(logins, 50).toFixed(1)} ms, p95 ${percentile(logins, 95).toFixed(1)} ms`,
  );
  console.log(
    `userinfo, ${concurrency} concurrent clients for ${seconds} s: ${(latencies.length / seconds).toFixed(0)} req/s, ` +
      `median ${percentile(latencies, 50).toFixed(2)} ms, p95 ${percentile(latencies, 95).toFixed(2)} ms, p99 ${percentile(latencies, 99).toFixed(2)} ms`,
  );
  console.log(`server + client process RSS after the run: ${rss.toFixed(0)} MiB`);

  await app.close();
  await pg.stop();
  await rm(dir, { recursive: true, force: true });
}

await main();
