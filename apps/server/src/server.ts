// Entry point: parse the configuration, build the app, listen, and close gracefully on SIGINT/SIGTERM.
import { buildApp } from './app';
import { ConfigError, parseEnv } from './env';

async function main() {
  let config: ReturnType<typeof parseEnv>;
  try {
    config = parseEnv();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const app = await buildApp(config).catch((error: unknown) => {
    console.error('The server could not start:', error instanceof Error ? error.message : error);
    process.exit(1);
  });
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, 20_000);
    timer.unref();
    try {
      await app.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    await app.listen({ host: config.host, port: config.port });
    app.log.info(`cloud-browser rooms is serving ${config.publicUrl}`);
  } catch (error) {
    app.log.error({ err: error }, 'could not start');
    await app.close().catch(() => {});
    process.exit(1);
  }
}

void main();
