// Test fixture: starts the embedded PostgreSQL in a process of its own, prints a JSON line when ready and runs
// until it is killed (SIGTERM stops the server first; SIGKILL leaves it running, as a crash would).
import { startEmbeddedPostgres } from '../embedded-postgres';

const [dataDir = '', port = ''] = process.argv.slice(2);
const server = await startEmbeddedPostgres({ dataDir, port: Number(port) });
process.once('SIGTERM', () => {
  void server.stop().then(() => process.exit(0));
});
console.log(JSON.stringify({ url: server.url, pid: process.pid }));
