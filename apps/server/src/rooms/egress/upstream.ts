// The socket-level half of the egress proxy: opening a connection to addresses the policy already checked,
// splicing two sockets into a tunnel, and cleaning the headers that belong to one hop only.
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/**
 * Connects to the first of `addresses` (IP literals) that answers within the deadline. The lookup hook refuses
 * to resolve anything: these addresses were checked, and a name slipping through here would be checked by no one.
 */
export async function connectToChecked(
  addresses: string[],
  port: number,
  timeoutMs: number,
): Promise<Socket> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown = new Error('No address to connect to');
  for (const address of addresses) {
    try {
      return await connectOne(address, port, Math.max(1, deadline - Date.now()));
    } catch (error) {
      lastError = error;
      if (Date.now() >= deadline) break;
    }
  }
  throw lastError;
}

function connectOne(host: string, port: number, timeoutMs: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({
      host,
      port,
      lookup: (hostname, _options, callback) =>
        callback(new Error(`egress proxy never resolves (${hostname})`), '', 4),
    });
    const fail = (error: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    const timer = setTimeout(
      () => fail(new Error(`Connect to ${host}:${port} timed out after ${timeoutMs} ms`)),
      timeoutMs,
    );
    socket.once('error', fail);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.off('error', fail);
      resolve(socket);
    });
  });
}

/** Pipes both ways; when either side errors or closes, both are destroyed so no half-dead tunnel lingers. */
export function splice(a: Duplex, b: Duplex): void {
  const destroyBoth = () => {
    a.destroy();
    b.destroy();
  };
  for (const side of [a, b]) {
    side.on('error', destroyBoth);
    side.on('close', destroyBoth);
  }
  a.pipe(b);
  b.pipe(a);
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  // The proxy writes Host from the checked URL itself.
  'host',
]);

/**
 * Drops hop-by-hop headers, every Proxy-* header (credentials for us must never reach the site) and those the
 * Connection header names. Content-Length is kept even when named there: dropping it would let a client change
 * how the body is framed to the next hop. Works on rawHeaders ([name, value, name, value...]) to keep order.
 */
export function endToEndHeaders(rawHeaders: string[]): string[] {
  const named = new Set<string>();
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.toLowerCase() === 'connection') {
      for (const token of rawHeaders[i + 1]!.split(',')) named.add(token.trim().toLowerCase());
    }
  }
  named.delete('content-length');
  const kept: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase();
    if (HOP_BY_HOP.has(name) || name.startsWith('proxy-') || named.has(name)) continue;
    kept.push(rawHeaders[i]!, rawHeaders[i + 1]!);
  }
  return kept;
}
