// A hostile room page for the isolation tests: it tries every way around the egress proxy to the host (WebRTC's
// STUN and TURN, DNS-over-HTTPS to a literal address, WebSockets, WebTransport), against listeners on every
// interface of the host that record whatever reaches them.
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { networkInterfaces } from 'node:os';

/** This machine's own addresses besides loopback: what a page must not reach (finding 7). */
const hostAddresses = Object.values(networkInterfaces())
  .flat()
  .filter((address) => address && !address.internal && address.family === 'IPv4')
  .map((address) => address!.address);
export const targets = ['127.0.0.1', ...hostAddresses];

/** Everything that reaches the host's listeners: a TCP server and a UDP socket on every interface. */
export interface TListeners {
  tcpPort: number;
  udpPort: number;
  seen: string[];
  close(): Promise<void>;
}

export async function startListeners(): Promise<TListeners> {
  const seen: string[] = [];
  const tcp: TcpServer = createTcpServer((socket) => {
    seen.push(`tcp from ${socket.remoteAddress}`);
    socket.destroy();
  });
  await new Promise<void>((resolve) => tcp.listen(0, '0.0.0.0', resolve));
  const udp: UdpSocket = createSocket('udp4');
  udp.on('message', (_message, from) => seen.push(`udp from ${from.address}`));
  await new Promise<void>((resolve) => udp.bind(0, '0.0.0.0', resolve));
  return {
    tcpPort: (tcp.address() as AddressInfo).port,
    udpPort: udp.address().port,
    seen,
    close: async () => {
      udp.close();
      await new Promise((resolve) => tcp.close(resolve));
    },
  };
}

/**
 * The hostile page: WebRTC with STUN and TURN servers on the host's addresses (UDP and TCP around the proxy),
 * DNS-over-HTTPS to a literal address, WebSockets to loopback and the host, WebTransport (QUIC). It reports
 * when it has fired everything.
 */
function hostilePage(listeners: TListeners): string {
  const script = `
    const hosts = ${JSON.stringify(targets)};
    const tcp = ${listeners.tcpPort}, udp = ${listeners.udpPort};
    const quiet = (promise) => promise.catch(() => {});
    const iceServers = hosts.flatMap((host) => [
      { urls: 'stun:' + host + ':' + udp },
      { urls: 'turn:' + host + ':' + tcp + '?transport=tcp', username: 'u', credential: 'p' },
      { urls: 'turn:' + host + ':' + udp + '?transport=udp', username: 'u', credential: 'p' },
    ]);
    const peer = new RTCPeerConnection({ iceServers, iceCandidatePoolSize: 4 });
    peer.createDataChannel('probe');
    quiet(peer.createOffer().then((offer) => peer.setLocalDescription(offer)));
    for (const host of hosts) {
      quiet(fetch('https://' + host + ':' + tcp + '/dns-query?dns=AAABAAABAAAAAAAAB2V4YW1wbGUDY29tAAABAAE',
        { headers: { accept: 'application/dns-message' } }));
      quiet(fetch('http://' + host + ':' + tcp + '/'));
      try { new WebSocket('ws://' + host + ':' + tcp + '/'); } catch {}
      try { quiet(new WebTransport('https://' + host + ':' + udp + '/').ready); } catch {}
    }
    setTimeout(() => fetch('/fired'), 3000);`;
  return `<!doctype html><html><body>hostile<script>${script}</script></body></html>`;
}

export interface TPages {
  origin: string;
  hostPort: string;
  fired: Promise<void>;
  close(): Promise<void>;
}

export async function startPages(listeners: TListeners): Promise<TPages> {
  let fired!: () => void;
  const firedPromise = new Promise<void>((resolve) => {
    fired = resolve;
  });
  const server: Server = createServer((request, response) => {
    if (request.url === '/fired') fired();
    response.writeHead(200, { 'content-type': 'text/html' }).end(hostilePage(listeners));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hostPort: `127.0.0.1:${port}`,
    fired: firedPromise,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
