// The participant's end of `npm run images:check` (scripts/images-check.sh): with the control plane, agent and
// gateway running as containers, an owner and a room are written into their database, the room is started through
// the control plane's REST API, and a participant joins through the gateway, as a script does (its session token),
// asking for H.264; it succeeds once H.264 pictures (a keyframe among them) and sound arrive.
//
//   tsx scripts/images-check-room.ts DATABASE_URL CONTROL_URL GATEWAY_URL PAGE_PORT
import { createServer } from 'node:http';
import { roomSocketPath } from '@rooms/api/room-protocol';
import { initOrm } from '@rooms/db';
import { storedRoom, storedUser } from '../apps/server/src/testing/stored-accounts';
import { RoomClient } from '../apps/server/src/ws/room-client';

const [databaseUrl, controlUrl, gatewayUrl, pagePort] = process.argv.slice(2);
if (!databaseUrl || !controlUrl || !gatewayUrl || !pagePort) {
  console.error('usage: images-check-room.ts DATABASE_URL CONTROL_URL GATEWAY_URL PAGE_PORT');
  process.exit(2);
}

// A page that changes every frame, so the encoder has pictures to send (the agent's egress proxy lets the room
// reach it: ROOM_EGRESS_ALLOW).
const page = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'text/html' }).end(
    `<!doctype html><title>moving</title><canvas id=c width=640 height=360></canvas><script>
      let n = 0; const c = document.getElementById('c').getContext('2d');
      (function f() { c.fillStyle = 'hsl(' + (n++ % 360) + ',80%,50%)'; c.fillRect(0, 0, 640, 360); requestAnimationFrame(f); })();
    </script>`,
  );
});
await new Promise<void>((resolve) => page.listen(Number(pagePort), '127.0.0.1', resolve));

const orm = await initOrm({ clientUrl: databaseUrl, logger: () => {} });
let client: RoomClient | undefined;
try {
  const owner = await storedUser(orm, { prefix: 'imgcheck' });
  const room = await storedRoom(orm, owner.id, {
    startUrl: `http://127.0.0.1:${pagePort}/`,
    width: 640,
    height: 360,
    maxFrameRate: 15,
    videoBitrateKbps: 1000,
  });
  const started = Date.now();
  const answer = await fetch(`${controlUrl}/api/room/startRoom?id=${room.id}`, {
    method: 'POST',
    headers: { authorization: owner.token },
  });
  const body = (await answer.json()) as { msg?: string; data?: { state?: string } };
  if (body.data?.state !== 'running')
    throw new Error(`startRoom answered ${answer.status}: ${JSON.stringify(body)}`);
  console.log(`room ${room.id} running on the agent ${Date.now() - started} ms after startRoom`);

  const socketUrl = `${gatewayUrl.replace(/^http/, 'ws')}${roomSocketPath(room.id)}?token=${encodeURIComponent(owner.token)}`;
  const joined = Date.now();
  client = await RoomClient.connect(socketUrl);
  client.send({
    type: 'member/join',
    nickname: 'images-check',
    decoders: ['h264', 'opus', 'jpeg'],
    layer: 'auto',
    acks: true,
  });
  client.acknowledge();
  const viewer = client;
  const pictures = () => viewer.frames.filter((frame) => frame.codec === 'h264');
  await viewer.until(() => pictures().length >= 30, '30 H.264 pictures through the gateway', 60_000);
  const h264 = pictures();
  const keyframes = h264.filter((frame) => frame.keyframe).length;
  const sound = viewer.frames.filter((frame) => frame.codec === 'opus').length;
  const bytes = h264.reduce((sum, frame) => sum + frame.data.byteLength, 0);
  console.log(
    `through the gateway: ${h264.length} H.264 pictures (${keyframes} keyframes, ${Math.round(bytes / 1024)} KiB), ${sound} Opus frames, ${Date.now() - joined} ms after joining`,
  );
  if (keyframes === 0) throw new Error('no H.264 keyframe arrived');
  await fetch(`${controlUrl}/api/room/stopRoom?id=${room.id}`, {
    method: 'POST',
    headers: { authorization: owner.token },
  }).catch(() => undefined);
} finally {
  client?.close();
  await orm.close();
  page.close();
}
