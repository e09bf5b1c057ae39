// A server stand-in for the hard-kill test: starts one room on the media pipeline, prints the processes it runs
// as one JSON line, and waits to be killed. Usage: node --import tsx run-room.ts <roomsDataDir>
import { startEgressProxy } from '../../rooms/egress/egress-proxy';
import { ChromiumRoomEngine } from '../../rooms/engine/chromium-room-engine';
import { liveDescendants } from './room-processes';

const [roomsDataDir = '', chromiumPath = '/usr/bin/chromium'] = process.argv.slice(2);
const engine = new ChromiumRoomEngine({
  chromiumPath,
  roomsDataDir,
  capacity: 1,
  media: 'h264',
  egress: { start: startEgressProxy, allow: [] },
});
await engine.start({
  roomId: 'hard-kill',
  width: 640,
  height: 360,
  maxFrameRate: 15,
  videoBitrateKbps: 500,
  startUrl: 'about:blank',
  keepData: false,
  autoCloseMs: null,
});
// Watching starts the encoders, so they are among the processes that must die with this one.
const session = engine.session('hard-kill')!;
session.video.subscribe(() => {});
session.audio?.subscribe(() => {});
await new Promise((resolve) => setTimeout(resolve, 1500));
const processes = await liveDescendants(process.pid);
console.log(JSON.stringify(processes));
setInterval(() => {}, 60_000);
