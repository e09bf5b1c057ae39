// Entry point: parse the configuration, build the app, listen, and close gracefully on SIGINT/SIGTERM.
import type { Server as TlsServer } from 'node:tls';
import { pino } from 'pino';
import { buildApp } from './app';
import { ConfigError, parseEnv, type TConfig } from './env';
import { TlsSetupError } from './tls/certificate-pair';
import { openTlsServing, type TTlsServing } from './tls/https-serving';

async function main() {
  let config: TConfig;
  try {
    config = parseEnv();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  // Before the app: with ACME the first start waits for its certificate, and a certificate the operator got wrong
  // stops the server before anything else starts.
  let tls: TTlsServing | null;
  try {
    tls = await openTlsServing(config, pino({ level: config.logLevel }));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`HTTPS cannot be served: ${message}`);
    if (!(error instanceof TlsSetupError)) console.error(error);
    process.exit(1);
  }

  const app = await buildApp(config, tls ? { https: tls.https } : {}).catch((error: unknown) => {
    console.error('The server could not start:', error instanceof Error ? error.message : error);
    process.exit(1);
  });
  if (tls) {
    const serving = tls;
    serving.attach(app.server as unknown as TlsServer);
    app.addHook('onClose', () => serving.close());
  }
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
