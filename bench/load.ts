// Load: many participants at once on the real server. Rooms run at 720p30 on the default path; guests come in
// through the share password, each from its own loopback address (127.1.x.y), as many browsers would: a ticket
// over HTTP, then the room WebSocket. For the run's length every participant counts the pictures it receives,
// sends a numbered chat message now and then and checks that it receives every room mate's messages once and in
// order; in each room one participant after another asks for control and gives it back. The participants live in
// a child process so that the server's CPU is its own. Prints the server's CPU and memory, pictures per second
// per participant (lowest, 5th percentile, median) and what was lost or out of order.
// Run: npm run bench:load [-- sockets=1000 rooms=2 seconds=60 bitrate=1000]
// Two rooms by default: on a 2-core machine four 720p30 rooms' encoders and displays (at nice −5) leave the server
// and the participants too little CPU to take a thousand sockets (bench/README.md).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { ROOM_TICKET_PATH, roomSocketPath } from '@rooms/api/room-protocol';
import { Room } from '@rooms/db';
import WebSocket from 'ws';
import { startBenchServer } from './bench-server';

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [name, value = ''] = arg.split('=');
    return [name, value];
  }),
);
const SOCKETS = Number(args.sockets ?? 1000);
const ROOMS = Number(args.rooms ?? 2);
const SECONDS = Number(args.seconds ?? 60);
const BITRATE_KBPS = Number(args.bitrate ?? 1000);
const PASSWORD = 'load-test';
/** Each participant sends a chat message about this often (under the room's 5 per 5 s limit). */
const CHAT_EVERY_MS = 10_000;
/** Each room hands control to its next participant this often. */
const CONTROL_EVERY_MS = 2_000;
/** Participants joining at the same moment. */
const CONNECTING_AT_ONCE = 8;

interface TClientsReport {
  connected: number;
  refused: Record<string, number>;
  fps: number[];
  chatSent: number;
  chatExpected: number;
  chatReceived: number;
  chatLost: number;
  chatOutOfOrder: number;
  chatDuplicated: number;
  handovers: number;
  /** Rooms whose members did not all see the same sequence of controllers while measuring. */
  controlDisagreements: number;
  /** Controller changes the first member of each room saw, summed over the rooms. */
  controlChangesSeen: number;
  droppedSockets: number;
}

// ---------------------------------------------------------------------------------------------------------------
// The participants (child process).

/** The n-th participant's own loopback address: 127.1.0.1, 127.1.0.2, … (all of 127/8 is this machine). */
const addressOf = (index: number) => `127.1.${Math.floor((index + 1) / 250)}.${((index + 1) % 250) + 1}`;

/** A ticket and the guest cookie it is tied to, as a browser keeps it for the WebSocket that follows. */
function ticketFor(
  port: number,
  roomId: string,
  localAddress: string,
): Promise<{ ticket: string; cookie: string }> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ roomId, password: PASSWORD });
    const call = request(
      {
        host: '127.0.0.1',
        port,
        path: ROOM_TICKET_PATH,
        method: 'POST',
        localAddress,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk) => {
          text += chunk;
        });
        response.on('end', () => {
          if (response.statusCode !== 200) reject(new Error(`ticket ${response.statusCode}: ${text}`));
          else {
            const cookie = (response.headers['set-cookie'] ?? [])
              .map((line) => line.split(';')[0])
              .join('; ');
            resolve({ ticket: (JSON.parse(text) as { ticket: string }).ticket, cookie });
          }
        });
      },
    );
    call.on('error', reject);
    call.end(body);
  });
}

interface TParticipant {
  index: number;
  room: number;
  socket: WebSocket;
  memberId: string | null;
  pictures: number;
  /** Per sender nickname: the last sequence number received. */
  lastSeen: Map<string, number>;
  received: number;
  lost: number;
  outOfOrder: number;
  duplicated: number;
  sent: number;
  closedEarly: boolean;
  /** The controllers this member was told of while measuring, in order (repeats folded). */
  controllers: (string | null)[];
}

async function runClients(port: number, roomIds: string[]): Promise<void> {
  const participants: TParticipant[] = [];
  const refused: Record<string, number> = {};
  let handovers = 0;
  let measuring = false;
  const join = async (index: number) => {
    const room = index % roomIds.length;
    const localAddress = addressOf(index);
    try {
      const { ticket, cookie } = await ticketFor(port, roomIds[room]!, localAddress);
      const socket = new WebSocket(
        `ws://127.0.0.1:${port}${roomSocketPath(roomIds[room]!)}?ticket=${encodeURIComponent(ticket)}`,
        { localAddress, perMessageDeflate: false, headers: { cookie, origin: `http://127.0.0.1:${port}` } },
      );
      await once(socket, 'open');
      const participant: TParticipant = {
        index,
        room,
        socket,
        memberId: null,
        pictures: 0,
        lastSeen: new Map(),
        received: 0,
        lost: 0,
        outOfOrder: 0,
        duplicated: 0,
        sent: 0,
        closedEarly: false,
        controllers: [],
      };
      socket.on('message', (data, isBinary) => {
        if (isBinary) {
          // Pictures only; sound is not counted.
          if (measuring && isPicture(data as Buffer)) participant.pictures++;
          return;
        }
        const message = JSON.parse(String(data)) as {
          type: string;
          you?: string;
          controllerId?: string | null;
          message?: { nickname: string; text: string };
        };
        if (message.type === 'member/list' && message.you) participant.memberId = message.you;
        if (message.type === 'control/state' && measuring) {
          const controller = message.controllerId ?? null;
          if (participant.controllers.at(-1) !== controller) participant.controllers.push(controller);
        }
        if (message.type === 'chat/message' && message.message && measuring) {
          const match = /^#(\d+)$/.exec(message.message.text);
          if (!match) return;
          const sequence = Number(match[1]);
          const last = participant.lastSeen.get(message.message.nickname) ?? 0;
          participant.received++;
          if (sequence === last + 1) participant.lastSeen.set(message.message.nickname, sequence);
          else if (sequence <= last) participant.duplicated++;
          else {
            participant.lost += sequence - last - 1;
            participant.outOfOrder++;
            participant.lastSeen.set(message.message.nickname, sequence);
          }
        }
      });
      socket.on('close', () => {
        if (measuring) participant.closedEarly = true;
      });
      // As a browser with WebCodecs: the H.264 picture and the Opus sound.
      socket.send(JSON.stringify({ type: 'member/join', nickname: `p${index}`, decoders: ['h264', 'opus'] }));
      participants.push(participant);
    } catch (error) {
      const reason = (error as Error).message.slice(0, 60);
      refused[reason] = (refused[reason] ?? 0) + 1;
    }
  };
  // A few browsers arrive at a time, as people do, not one burst of a thousand handshakes; one at a time would
  // take minutes, each ticket checking the share password with argon2id.
  let nextIndex = 0;
  const joinStarted = performance.now();
  const progress = setInterval(() => {
    const seconds = ((performance.now() - joinStarted) / 1000).toFixed(0);
    process.stderr.write(`load bench: ${participants.length} of ${SOCKETS} joined after ${seconds} s\n`);
  }, 10_000);
  await Promise.all(
    Array.from({ length: CONNECTING_AT_ONCE }, async () => {
      while (nextIndex < SOCKETS) await join(nextIndex++);
    }),
  );
  clearInterval(progress);
  process.stderr.write(
    `load bench: ${participants.length} joined in ${((performance.now() - joinStarted) / 1000).toFixed(1)} s\n`,
  );
  // Everyone joined (or gave up), then the measured minute.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  measuring = true;
  const started = performance.now();
  const chatTimers = participants.map((participant, position) =>
    setTimeout(function chat() {
      if (participant.socket.readyState !== WebSocket.OPEN) return;
      participant.sent++;
      participant.socket.send(JSON.stringify({ type: 'chat/send', text: `#${participant.sent}` }));
      chatTimers[position] = setTimeout(chat, CHAT_EVERY_MS);
    }, Math.random() * CHAT_EVERY_MS),
  );
  // Control passes along each room: the next participant asks (granted at once on a free seat), then gives it back.
  const next = new Map<number, number>();
  const control = setInterval(() => {
    for (let room = 0; room < roomIds.length; room++) {
      const mates = participants.filter((participant) => participant.room === room);
      if (!mates.length) continue;
      const at = next.get(room) ?? 0;
      const previous = mates[(at + mates.length - 1) % mates.length]!;
      const current = mates[at % mates.length]!;
      previous.socket.send(JSON.stringify({ type: 'control/release' }));
      current.socket.send(JSON.stringify({ type: 'control/request' }));
      next.set(room, at + 1);
      handovers++;
    }
  }, CONTROL_EVERY_MS);
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
  measuring = false;
  const elapsed = (performance.now() - started) / 1000;
  clearInterval(control);
  for (const timer of chatTimers) clearTimeout(timer);
  // Messages still on their way count as received, not lost.
  await new Promise((resolve) => setTimeout(resolve, 1000));

  const report: TClientsReport = {
    connected: participants.length,
    refused,
    fps: participants.map((participant) => participant.pictures / elapsed),
    chatSent: participants.reduce((sum, participant) => sum + participant.sent, 0),
    chatExpected: participants.reduce(
      (sum, participant) =>
        sum +
        participants
          .filter((mate) => mate.room === participant.room)
          .reduce((mates, mate) => mates + mate.sent, 0),
      0,
    ),
    chatReceived: participants.reduce((sum, participant) => sum + participant.received, 0),
    chatLost: participants.reduce((sum, participant) => sum + participant.lost, 0),
    chatOutOfOrder: participants.reduce((sum, participant) => sum + participant.outOfOrder, 0),
    chatDuplicated: participants.reduce((sum, participant) => sum + participant.duplicated, 0),
    handovers,
    ...controlAgreement(participants, roomIds.length),
    droppedSockets: participants.filter((participant) => participant.closedEarly).length,
  };
  for (const participant of participants) participant.socket.terminate();
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

/**
 * Whether every member of a room saw the same controllers in the same order. A member counts from the first
 * change it saw (one may join the sequence a step late as measuring starts), so sequences are compared from the
 * end: the shorter must be the longer's tail.
 */
function controlAgreement(participants: TParticipant[], rooms: number) {
  let controlDisagreements = 0;
  let controlChangesSeen = 0;
  for (let room = 0; room < rooms; room++) {
    const sequences = participants
      .filter((participant) => participant.room === room && !participant.closedEarly)
      // A leading comma, so a tail always starts at a whole id.
      .map((participant) => participant.controllers.map((id) => `,${id}`).join(''));
    const longest = sequences.reduce((a, b) => (b.length > a.length ? b : a), '');
    if (sequences.some((sequence) => !longest.endsWith(sequence))) controlDisagreements++;
    controlChangesSeen +=
      participants.find((participant) => participant.room === room)?.controllers.length ?? 0;
  }
  return { controlDisagreements, controlChangesSeen };
}

/** Whether a binary frame is a picture (JPEG or H.264), by the codec id media-frame.ts puts at byte 1. */
function isPicture(frame: Buffer): boolean {
  return frame[1] === 1 || frame[1] === 2;
}

// ---------------------------------------------------------------------------------------------------------------
// The server (this process).

async function runServer(): Promise<void> {
  const server = await startBenchServer({
    name: 'load',
    postgresPort: 5597,
    env: { ROOM_CAPACITY: String(ROOMS) },
  });
  const { app, port, pages } = server;
  const em = app.orm.em.fork();
  const roomIds: string[] = [];
  for (let index = 0; index < ROOMS; index++) {
    const room = await server.call('/api/room/createRoom', {
      name: `load-${index}`,
      password: PASSWORD,
      region: 'local',
      image: 'chromium-url',
      startUrl: pages.url('/animated'),
      width: 1280,
      height: 720,
      maxFrameRate: 30,
      videoBitrateKbps: BITRATE_KBPS,
    });
    // The API caps a room at 100 people; a load run may bring more to one room.
    await em.nativeUpdate(Room, { id: room.id }, { maxConnections: Math.ceil(SOCKETS / ROOMS) + 2 });
    await server.call('/api/room/startRoom', { id: room.id });
    roomIds.push(room.id);
  }

  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  let peakRss = 0;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 1000);
  const clients = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      fileURLToPath(import.meta.url),
      'role=clients',
      `port=${port}`,
      `roomIds=${roomIds.join(',')}`,
      ...process.argv.slice(2),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  clients.stdout.on('data', (chunk) => {
    output += chunk;
  });
  await once(clients, 'exit');
  clearInterval(sampler);
  const cpu = process.cpuUsage(cpuBefore);
  const wall = (performance.now() - wallBefore) / 1000;
  const report = JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as TClientsReport;

  const fps = [...report.fps].sort((a, b) => a - b);
  const at = (p: number) => fps[Math.min(fps.length - 1, Math.floor(fps.length * p))] ?? 0;
  console.log(
    `load bench: ${SOCKETS} participants over ${ROOMS} rooms (1280×720, 30 fps, ${BITRATE_KBPS} kbit/s), ${SECONDS} s measured, 2 CPUs`,
  );
  console.log('| figure | value |');
  console.log('| --- | ---: |');
  console.log(`| participants connected | ${report.connected} of ${SOCKETS} |`);
  console.log(`| refused | ${JSON.stringify(report.refused)} |`);
  console.log(
    `| pictures/s per participant: lowest, p5, median | ${at(0).toFixed(1)}, ${at(0.05).toFixed(1)}, ${at(0.5).toFixed(1)} |`,
  );
  console.log(
    `| chat messages sent / expected deliveries / received | ${report.chatSent} / ${report.chatExpected} / ${report.chatReceived} |`,
  );
  console.log(
    `| chat lost, out of order, duplicated | ${report.chatLost}, ${report.chatOutOfOrder}, ${report.chatDuplicated} |`,
  );
  console.log(
    `| control hand-overs asked / controller changes seen / rooms whose members disagree | ${report.handovers} / ${report.controlChangesSeen} / ${report.controlDisagreements} |`,
  );
  console.log(`| sockets dropped while measuring | ${report.droppedSockets} |`);
  console.log(
    `| server process CPU (of one core), whole run | ${((100 * (cpu.user + cpu.system)) / 1e6 / wall).toFixed(0)} % |`,
  );
  console.log(`| server process peak RSS | ${(peakRss / 1024 ** 2).toFixed(0)} MB |`);

  await server.close();
}

if (args.role === 'clients') await runClients(Number(args.port), (args.roomIds ?? '').split(','));
else await runServer();
