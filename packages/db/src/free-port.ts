// A loopback port nothing listens on right now, for a server started next (an embedded PostgreSQL, a test's or a
// benchmark's own listener). The port is only free at the moment of asking; the caller binds it at once.
import { createServer } from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject(address)));
    });
  });
}
