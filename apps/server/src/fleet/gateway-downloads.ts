// GET /ws/room/:roomId/downloads/:downloadId?key=… on a gateway: the controller's browser saves a file the room
// downloaded, at the same path (and so the same host) as a single server serves it, beside the room's socket. The
// gateway checks the key first, as every process that serves the path does (../rooms/hub/download-keys.ts: signed
// for this room and this offer, unexpired), so a forged key or another room's never reaches an agent; it then
// fetches the file from the room's agent with its own signed call (./agent-downloads.ts), where the room's hub
// honours the key once, for the member in control it was offered to. The answer's headers are the gateway's own,
// from the offer's name, size and type, and the file is passed through as it streams, never past its announced size
// nor DOWNLOAD_MAX_BYTES; nothing of it is kept or opened here.
import { Readable, Transform } from 'node:stream';
import type { MikroORM } from '@mikro-orm/postgresql';
import { fleet } from '@rooms/api';
import { DOWNLOAD_MAX_BYTES, DOWNLOAD_NAME_MAX_LENGTH } from '@rooms/api/room-protocol';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { DownloadKeys } from '../rooms/hub/download-keys';
import {
  downloadRequestOf,
  ROOM_DOWNLOAD_PATH,
  refuseDownload,
  withDownloadHeaders,
} from '../ws/room-download-route';
import {
  agentDownloadPath,
  DOWNLOAD_FILE_HEADER,
  DOWNLOAD_KEY_HEADER,
  ZDownloadFile,
} from './agent-downloads';
import type { TFleetCaller } from './fleet-callers';

/** How long the room's agent may take to start answering. */
const AGENT_ANSWER_MS = 10_000;

export interface TGatewayDownloadsOptions {
  orm: MikroORM;
  caller: TFleetCaller;
  keys: DownloadKeys;
  log: FastifyBaseLogger;
}

/** The address and id of the agent running the room now, if one does. */
export async function liveAgentOf(
  orm: MikroORM,
  roomId: string,
): Promise<{ address: string; agentId: string } | undefined> {
  const em = orm.em.fork();
  const run = await fleet.liveRunOf(em, roomId);
  const agent = run?.state === 'running' ? await fleet.agentById(em, run.agentId) : null;
  return agent && agent.state !== 'lost' ? { address: agent.address, agentId: agent.id } : undefined;
}

export function registerGatewayDownloads(app: FastifyInstance, options: TGatewayDownloadsOptions): void {
  const { orm, caller, keys, log } = options;
  app.get(ROOM_DOWNLOAD_PATH, async (request, reply) => {
    const wanted = downloadRequestOf(request);
    if (!wanted) return refuseDownload(reply, 'DOWNLOAD_LINK_INVALID');
    const { roomId, downloadId, key } = wanted;
    if (!keys.check(roomId, downloadId, key, Date.now()))
      return refuseDownload(reply, 'DOWNLOAD_NOT_AVAILABLE');
    let agent: Awaited<ReturnType<typeof liveAgentOf>>;
    try {
      agent = await liveAgentOf(orm, roomId);
    } catch (error) {
      log.warn({ err: error, roomId }, 'gateway: could not find the room run for a download');
      return refuseDownload(reply, 'ROOMS_UNAVAILABLE');
    }
    // The room stopped or moved: its files went with its run.
    if (!agent) return refuseDownload(reply, 'DOWNLOAD_NOT_AVAILABLE');

    const path = agentDownloadPath(roomId, downloadId);
    const abort = new AbortController();
    const answerTimer = setTimeout(() => abort.abort(), AGENT_ANSWER_MS);
    // The browser gave up: so does the fetch from the agent (the offer is spent either way).
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) abort.abort();
    });
    let upstream: Response;
    try {
      upstream = await fetch(`http://${agent.address}${path}`, {
        headers: {
          authorization: await caller.authorization(agent.address, 'GET', path),
          [DOWNLOAD_KEY_HEADER]: key,
        },
        signal: abort.signal,
      });
    } catch (error) {
      log.warn({ err: error, roomId }, 'gateway: the room’s agent did not hand the download over');
      return refuseDownload(reply, 'ROOMS_UNAVAILABLE');
    } finally {
      clearTimeout(answerTimer);
    }
    if (upstream.status !== 200 || !upstream.body) {
      await upstream.body?.cancel();
      if (upstream.status === 404) return refuseDownload(reply, 'DOWNLOAD_NOT_AVAILABLE');
      if (upstream.status === 400) return refuseDownload(reply, 'DOWNLOAD_LINK_INVALID');
      log.warn({ roomId, status: upstream.status }, 'gateway: the room’s agent refused a download fetch');
      return refuseDownload(reply, 'ROOMS_UNAVAILABLE');
    }
    const file = describedFile(upstream.headers.get(DOWNLOAD_FILE_HEADER));
    if (!file || upstream.headers.get('content-length') !== String(file.size)) {
      abort.abort();
      log.warn({ roomId }, 'gateway: the room’s agent described a download it may not hand out');
      return refuseDownload(reply, 'DOWNLOAD_NOT_AVAILABLE');
    }
    const body = Readable.fromWeb(upstream.body as Parameters<typeof Readable.fromWeb>[0]).pipe(
      atMost(file.size),
    );
    body.once('error', () => abort.abort());
    return withDownloadHeaders(reply, file).send(body);
  });
}

function describedFile(header: string | null) {
  if (!header || header.length > 2048) return null;
  try {
    const parsed = ZDownloadFile.safeParse(JSON.parse(Buffer.from(header, 'base64url').toString('utf8')));
    if (!parsed.success) return null;
    const file = parsed.data;
    return file.size <= DOWNLOAD_MAX_BYTES && file.name.length <= DOWNLOAD_NAME_MAX_LENGTH ? file : null;
  } catch {
    return null;
  }
}

/** Passes at most `limit` bytes, and fails the stream past them. */
function atMost(limit: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > limit) done(new Error('the download ran past its announced size'));
      else done(null, chunk);
    },
  });
}
