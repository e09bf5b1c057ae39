// Vitest's global set-up for the suites that start server processes: the bundle they run, written from the sources
// of this checkout first, so a test never runs the server as it was at an older build.
import { bundleServer } from '../bundle';

export default async function setup(): Promise<void> {
  await bundleServer();
}
