// Soak: rooms start, stream to a participant, restart and stop over and over on the real server (REST, the
// relay, the engine with its sandbox and media), while the server's memory, heap, handles and open files are
// sampled after every cycle, and any process a stopped room leaves behind is counted. Prints the samples and
// the growth between the first cycles (after warm-up) and the last.
//   npm run bench:soak [-- minutes=30 hold=5]
import { readdir, readFile } from 'node:fs/promises';
import { roomSocketPath } from '@rooms/api/room-protocol';
import { RoomClient } from '../apps/server/src/ws/room-client';
import { startBenchServer } from './bench-server';

const args = Object.fromEntries(process.argv.slice(2).map((arg) => arg.split('=') as [string, string]));
const minutes = Number(args.minutes ?? 30);
const holdSeconds = Number(args.hold ?? 5);

interface TSample {
  cycle: number;
  minute: number;
  rssMb: number;
  heapMb: number;
  handles: number;
  fds: number;
  leftovers: number;
}

/** Processes whose command line names the rooms' data directory (a stopped room must leave none). */
async function processesUnder(path: string): Promise<number> {
  let count = 0;
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(path)) count += 1;
  }
  return count;
}

async function main() {
  const server = await startBenchServer({ name: 'soak', postgresPort: 5596 });
  const { port, pages, roomsDir, token, call } = server;
  const rooms = await Promise.all(
    ['a', 'b'].map((name) =>
      call('/api/room/createRoom', {
        name: `soak-${name}`,
        region: 'local',
        image: 'chromium-url',
        startUrl: pages.url('/animated'),
      }),
    ),
  );

  const samples: TSample[] = [];
  /** Cycles whose participant got no picture in time. */
  const stalls: number[] = [];
  const started = performance.now();
  const deadline = started + minutes * 60_000;
  let cycle = 0;
  console.log('| cycle | minute | RSS MB | heap MB | handles | fds | leftover processes |');
  console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  while (performance.now() < deadline) {
    cycle += 1;
    const room = rooms[cycle % rooms.length]!;
    await call('/api/room/startRoom', { id: room.id });
    const client = await RoomClient.connect(
      `ws://127.0.0.1:${port}${roomSocketPath(room.id)}?token=${encodeURIComponent(token)}`,
    );
    client.send({ type: 'member/join', nickname: `soak-${cycle}` });
    await client.next('member/list');
    // A room running without a picture for its participant is a finding, not the end of the run.
    const streaming = await client
      .until(() => client.frames.length > 10, 'frames', 20_000)
      .then(
        () => true,
        () => false,
      );
    if (!streaming) {
      stalls.push(cycle);
      const state = await fetch(`http://127.0.0.1:${port}/api/room/getRoomList`, {
        headers: { authorization: token },
      }).then((reply) => reply.text());
      console.log(
        `cycle ${cycle}: no picture within 20 s (${client.frames.length} frames, messages ` +
          `${client.messages.map((message) => message.type).join(' ')}; rooms ${state.slice(0, 300)})`,
      );
    }
    // Every third cycle restarts with the participant inside (it is told and the socket closes).
    if (cycle % 3 === 0) await call('/api/room/restartRoom', { id: room.id });
    await new Promise((resolve) => setTimeout(resolve, holdSeconds * 1000));
    client.close();
    await call('/api/room/stopRoom', { id: room.id });

    global.gc?.();
    const memory = process.memoryUsage();
    const sample: TSample = {
      cycle,
      minute: (performance.now() - started) / 60_000,
      rssMb: memory.rss / 1024 / 1024,
      heapMb: memory.heapUsed / 1024 / 1024,
      handles: process.getActiveResourcesInfo().length,
      fds: (await readdir('/proc/self/fd')).length,
      leftovers: await processesUnder(roomsDir),
    };
    samples.push(sample);
    console.log(
      `| ${cycle} | ${sample.minute.toFixed(1)} | ${sample.rssMb.toFixed(0)} | ${sample.heapMb.toFixed(1)} | ${sample.handles} | ${sample.fds} | ${sample.leftovers} |`,
    );
  }

  // Growth from the first cycles after warm-up to the last, so start-up allocations do not count.
  const warm = samples[Math.min(3, samples.length - 1)];
  const last = samples.at(-1);
  if (warm && last) {
    const hours = Math.max((last.minute - warm.minute) / 60, 1 / 60);
    console.log(
      `\n${samples.length} cycles in ${last.minute.toFixed(1)} min. From cycle ${warm.cycle} to ${last.cycle}: ` +
        `RSS ${(last.rssMb - warm.rssMb).toFixed(1)} MB (${((last.rssMb - warm.rssMb) / hours).toFixed(0)} MB/h), ` +
        `heap ${(last.heapMb - warm.heapMb).toFixed(1)} MB, handles ${last.handles - warm.handles}, ` +
        `fds ${last.fds - warm.fds}; leftover processes at the end: ${last.leftovers}; ` +
        `cycles without a picture within 20 s: ${stalls.length ? stalls.join(', ') : 'none'}`,
    );
  }

  await server.close();
}

await main();
