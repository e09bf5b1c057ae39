// Writes to a participant's socket are held until the end of the event loop's turn and leave together, in one
// system call. A room's picture and sound arrive as separate chunks, and every chunk goes to every member: one
// write per chunk per member made the kernel call itself most of the server's time with a few hundred members
// (~60 % of the process in writev at 700 sockets, profiled). A turn that handles several chunks (a busy server
// handles more per turn) now costs each member one write, and an idle server's turn ends at once, so nothing
// waits longer than it would have.
import type { Socket } from 'node:net';

const held = new Set<Socket>();

function releaseHeld(): void {
  for (const socket of held) socket.uncork();
  held.clear();
}

/** Holds the socket's writes until this turn's I/O callbacks are done (the check phase). */
export function holdWritesForTurn(socket: Socket): void {
  if (held.has(socket)) return;
  if (held.size === 0) setImmediate(releaseHeld);
  socket.cork();
  held.add(socket);
}
