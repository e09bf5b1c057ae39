// Soak: rooms start, stream to a participant, restart and stop over and over on the real server (REST, the
// relay, the engine with its sandbox and media), while the server's memory, heap, handles and open files are
// sampled after every cycle, and any process a stopped room leaves behind is counted. Prints the samples and
// the growth between the first cycles (after warm-up) and the last.
//   npm run build && npm run bench:soak [-- minutes=30 hold=5 snapshots=DIR]
// The server runs as npm start runs it, in a process of its own (bench-server-process.ts), so the figures are the
// server's alone, not the participant's with every picture it received. Each sample follows a full collection in the
// server (through its inspector). With snapshots=DIR the server writes heap snapshots after the warm-up cycle and
// after the last one; `npx tsx bench/heap-compare.ts early late` says what the later one kept.
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { roomSocketPath } from '@rooms/api/room-protocol';
import { RoomClient } from '../apps/server/src/testing/room-client';
import { startBenchServerProcess, type TBenchServerProcess } from './bench-server-process';

const args = Object.fromEntries(process.argv.slice(2).map((arg) => arg.split('=') as [string, string]));
const minutes = Number(args.minutes ?? 30);
const holdSeconds = Number(args.hold ?? 5);
const snapshotDir = args.snapshots;
/** The cycle after which growth is counted (start-up allocations before it do not count). */
const WARM_CYCLE = 4;

interface TSample {
  cycle: number;
  minute: number;
  rssMb: number;
  /** RSS in anonymous memory (the heap, malloc, buffers): file pages (code, mapped files) are the rest. */
  anonMb: number;
  heapMb: number;
  /** What V8 holds for its heap (used or not): its share of the RSS. */
  heapTotalMb: number;
  /** Memory of Buffers and other objects outside V8's heap. */
  externalMb: number;
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

/** RssAnon of a process from /proc, in MB (0 where there is no procfs). */
async function anonymousRssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = Number(/^RssAnon:\s+(\d+) kB/m.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** A heap snapshot of the server after a full collection, so only what is still reachable is in it. */
async function snapshot(server: TBenchServerProcess, dir: string, name: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const file = await server.inspector.writeHeapSnapshot(resolve(dir, `soak-${name}.heapsnapshot`));
  console.log(`heap snapshot: ${file}`);
}

/** The server's memory, heap, handles and open files, after a full collection in it. */
async function measure(server: TBenchServerProcess) {
  await server.inspector.collectGarbage();
  const memory = await server.inspector.evaluate<NodeJS.MemoryUsage>('process.memoryUsage()');
  return {
    rssMb: memory.rss / 1024 / 1024,
    anonMb: await anonymousRssMb(server.pid),
    heapMb: memory.heapUsed / 1024 / 1024,
    heapTotalMb: memory.heapTotal / 1024 / 1024,
    externalMb: memory.external / 1024 / 1024,
    handles: await server.inspector.evaluate<number>('process.getActiveResourcesInfo().length'),
    fds: (await readdir(`/proc/${server.pid}/fd`)).length,
  };
}

/** RSS and heap growth between two samples: in all, per hour and per cycle. */
function growth(from: TSample, to: TSample): string {
  const hours = Math.max((to.minute - from.minute) / 60, 1 / 60);
  const cycles = Math.max(to.cycle - from.cycle, 1);
  const rss = to.rssMb - from.rssMb;
  const heap = to.heapMb - from.heapMb;
  return (
    `RSS ${from.rssMb.toFixed(1)} → ${to.rssMb.toFixed(1)} MB (${rss.toFixed(1)} MB, ${(rss / hours).toFixed(0)} MB/h, ` +
    `${((rss * 1024) / cycles).toFixed(0)} KB a cycle; anonymous ${(to.anonMb - from.anonMb).toFixed(1)} MB), ` +
    `heap ${from.heapMb.toFixed(1)} → ${to.heapMb.toFixed(1)} MB (${heap.toFixed(1)} MB, ` +
    `${((heap * 1024) / cycles).toFixed(0)} KB a cycle; V8's total ${(to.heapTotalMb - from.heapTotalMb).toFixed(1)} MB), ` +
    `external ${(to.externalMb - from.externalMb).toFixed(1)} MB`
  );
}

async function main() {
  const server = await startBenchServerProcess({ name: 'soak', postgresPort: 5596 });
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
  console.log(
    '| cycle | minute | RSS MB | anon MB | heap MB | V8 heap total MB | external MB | handles | fds | leftover processes |',
  );
  console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
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

    const sample: TSample = {
      cycle,
      minute: (performance.now() - started) / 60_000,
      ...(await measure(server)),
      leftovers: await processesUnder(roomsDir),
    };
    samples.push(sample);
    console.log(
      `| ${cycle} | ${sample.minute.toFixed(1)} | ${sample.rssMb.toFixed(0)} | ${sample.anonMb.toFixed(0)} | ` +
        `${sample.heapMb.toFixed(1)} | ${sample.heapTotalMb.toFixed(1)} | ${sample.externalMb.toFixed(1)} | ${sample.handles} | ${sample.fds} | ${sample.leftovers} |`,
    );
    if (snapshotDir && cycle === WARM_CYCLE) await snapshot(server, snapshotDir, `cycle-${cycle}`);
  }
  if (snapshotDir) await snapshot(server, snapshotDir, `cycle-${cycle}`);

  // Growth from the first cycles after warm-up to the last, so start-up allocations do not count; and over the
  // second half alone, where what the server still compiles and caches while it warms up no longer shows.
  const warm = samples[Math.min(WARM_CYCLE - 1, samples.length - 1)];
  const middle = samples[Math.floor(samples.length / 2)];
  const last = samples.at(-1);
  if (warm && middle && last) {
    console.log(
      `\n${samples.length} cycles in ${last.minute.toFixed(1)} min. From cycle ${warm.cycle} to ${last.cycle}: ` +
        `${growth(warm, last)}; handles ${last.handles - warm.handles}, fds ${last.fds - warm.fds}; ` +
        `leftover processes at the end: ${last.leftovers}; ` +
        `cycles without a picture within 20 s: ${stalls.length ? stalls.join(', ') : 'none'}`,
    );
    console.log(`Second half, from cycle ${middle.cycle} to ${last.cycle}: ${growth(middle, last)}`);
  }

  await server.close();
}

await main();
