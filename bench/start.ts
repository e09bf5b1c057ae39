// Room start as its owner lives it, on the real server: Start (the REST call returns once the room runs), then
// Enter (a room socket that joins) → the first picture, then Stop; repeated, cold every time (no room is kept
// warm). Prints each cycle and the median and worst of both figures.
// The participant declares no decoders, so it gets the screencast the way a browser without WebCodecs does.
// Run: npm run bench:start [-- cycles=8]
import { roomSocketPath } from '@rooms/api/room-protocol';
import { RoomClient } from '../apps/server/src/ws/room-client';
import { startBenchServer } from './bench-server';

const args = Object.fromEntries(process.argv.slice(2).map((arg) => arg.split('=') as [string, string]));
const CYCLES = Number(args.cycles ?? 8);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function main(): Promise<void> {
  const server = await startBenchServer({ name: 'start', postgresPort: 5598 });
  const room = await server.call('/api/room/createRoom', {
    name: 'start-bench',
    region: 'local',
    image: 'chromium-url',
    startUrl: server.pages.url('/animated'),
  });
  const starts: number[] = [];
  const pictures: number[] = [];
  /** Cycles whose participant got no picture within 20 s. */
  const stalls: number[] = [];
  console.log('| cycle | Start → running ms | Enter → first picture ms |');
  console.log('| ---: | ---: | ---: |');
  try {
    for (let cycle = 1; cycle <= CYCLES; cycle++) {
      const asked = performance.now();
      await server.call('/api/room/startRoom', { id: room.id });
      const running = performance.now();
      const client = await RoomClient.connect(
        `ws://127.0.0.1:${server.port}${roomSocketPath(room.id)}?token=${encodeURIComponent(server.token)}`,
      );
      client.send({ type: 'member/join', nickname: 'owner' });
      // A room running without a picture for its participant is a finding, not the end of the run.
      const pictureCame = await client
        .until(() => client.frames.some((frame) => frame.codec !== 'opus'), 'a picture', 20_000)
        .then(
          () => true,
          () => false,
        );
      if (!pictureCame) stalls.push(cycle);
      const pictured = performance.now();
      client.close();
      await server.call('/api/room/stopRoom', { id: room.id });
      starts.push(running - asked);
      if (pictureCame) pictures.push(pictured - running);
      console.log(`| ${cycle} | ${(running - asked).toFixed(0)} | ${(pictured - running).toFixed(0)} |`);
    }
  } finally {
    await server.close();
  }
  console.log(
    `\nStart → running: median ${median(starts).toFixed(0)} ms, worst ${Math.max(...starts).toFixed(0)} ms; ` +
      `Enter → first picture: median ${median(pictures).toFixed(0)} ms, worst ${Math.max(...pictures).toFixed(0)} ms; ` +
      `cycles without a picture within 20 s: ${stalls.length ? stalls.join(', ') : 'none'}`,
  );
}

await main();
