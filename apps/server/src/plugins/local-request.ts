// Whether a request comes from this machine itself: the socket's own address must be loopback (an X-Forwarded-For
// header is not believed), and a request a local proxy forwards for someone else does not count.
import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';

function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const bare = address.replace(/^::ffff:/i, '');
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare === '::1' || bare === '0:0:0:0:0:0:0:1';
}

export function fromThisMachine(request: FastifyRequest): boolean {
  const proxied = request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined;
  return !proxied && isLoopback(request.raw.socket.remoteAddress);
}
