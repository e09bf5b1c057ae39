// The Redis of the suites about what several processes share through it (rate limits, the share-password budgets).
// `.ci/run` names one in TEST_REDIS_URL (this machine's, on a database index of the tests' own, or a redis-server
// it starts): then the suites run, and fail if it does not answer. Without it they use REDIS_URL or this machine's
// on 6379 when one answers, and skip otherwise. TEST_REDIS_URL, not REDIS_URL, so that no other test's server
// processes (which inherit the environment) count their limits in it.
import { createConnection } from 'node:net';

const named = process.env.TEST_REDIS_URL;

/** The Redis the suites use, whether or not it answers. */
export const testRedisUrl = named ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Whether the Redis suites run: always when the run named a Redis, else when the default one answers. */
export const testRedisAvailable: boolean = named !== undefined || (await answers(testRedisUrl));

async function answers(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = createConnection({ host: hostname, port: Number(port || 6379) });
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}
