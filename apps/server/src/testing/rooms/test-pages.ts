// Pages for the engine's integration tests and the stream benchmark, served on loopback: an animated canvas,
// a button that changes colour when pressed, a form, a cookie setter and checker, a popup link, a key reporter;
// for the media pipeline a tone with an animation, moving noise that needs every bit of a bitrate, and a flash with a beep. The pages report
// what happened to them by requesting /event/<name>, so tests check the page's behaviour without reading pixels.
// Pages a test presses on report `ready:<page>` once loaded: input sent before that can miss what it aims at. So
// does the noise: a bitrate measured before it draws measures a blank page.
import { once } from 'node:events';
import { createServer, type Server, type ServerResponse } from 'node:http';

export interface TTestPages {
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
  /** For the egress allow-list: exactly this server. */
  hostPort: string;
  url(path: string): string;
  /** Events the pages reported, oldest first, e.g. "clicked", "submitted:hi there", "cookie:<as>:room=kept". */
  events: string[];
  waitForEvent(prefix: string, timeoutMs?: number): Promise<string>;
  close(): Promise<void>;
}

const page = (body: string, script = '') =>
  `<!doctype html><html><head><meta charset="utf-8"><title>test page</title>
<style>html,body{margin:0;height:100%;font:40px sans-serif}</style></head><body>${body}
<script>const report = (name) => fetch('/event/' + encodeURIComponent(name));${script}</script></body></html>`;

/** A steady 440 Hz tone from the moment the page loads (the room browser allows autoplay); leaves `audio`. */
const TONE = `const audio = new AudioContext();
     const tone = audio.createOscillator();
     const gain = audio.createGain();
     tone.frequency.value = 440;
     gain.gain.value = 0.5;
     tone.connect(gain).connect(audio.destination);
     tone.start();`;
/** Fresh random blocks every frame on NOISE_CANVAS: no encoder can predict them. */
const NOISE_CANVAS =
  '<canvas id="c" width="320" height="180" style="display:block;width:100%;height:100%;image-rendering:pixelated"></canvas>';
const NOISE = `const ctx = document.getElementById('c').getContext('2d');
     const image = ctx.createImageData(320, 180);
     const words = new Uint32Array(image.data.buffer);
     (function draw() {
       for (let i = 0; i < words.length; i++) words[i] = (Math.random() * 0xffffff) | 0xff000000;
       ctx.putImageData(image, 0, 0);
       requestAnimationFrame(draw);
     })();`;

const PAGES: Record<string, string> = {
  // Text and colour change every animation frame, so every frame's JPEG differs.
  '/animated': page(
    '<canvas id="c" style="display:block;width:100%;height:100%"></canvas>',
    `const canvas = document.getElementById('c');
     const ctx = canvas.getContext('2d');
     let n = 0;
     function draw() {
       canvas.width = innerWidth; canvas.height = innerHeight;
       n++;
       ctx.fillStyle = 'hsl(' + (n * 7 % 360) + ',70%,50%)';
       ctx.fillRect(0, 0, canvas.width, canvas.height);
       ctx.fillStyle = '#000';
       ctx.fillText('frame ' + n, 40, 80);
       requestAnimationFrame(draw);
     }
     ctx.font = '48px sans-serif';
     draw();`,
  ),
  // A file chooser over the top half (a press there opens it) and a drop zone below; the chosen or dropped file's
  // name and size show on the page and are reported with a checksum of its bytes.
  '/upload': page(
    `<input id="f" type="file" style="position:fixed;left:5%;top:5%;width:90%;height:40%;font-size:40px">
     <div id="drop" style="position:fixed;left:5%;top:50%;width:90%;height:25%;border:6px dashed #36c">Drop here</div>
     <p id="out" style="position:fixed;left:5%;top:78%">No file</p>`,
    `const show = async (file, how) => {
       const bytes = new Uint8Array(await file.arrayBuffer());
       let sum = 0;
       for (const byte of bytes) sum = (sum + byte) % 65521;
       document.getElementById('out').textContent = file.name + ' — ' + file.size + ' bytes';
       report(how + ':' + file.name + ':' + file.size + ':' + sum);
     };
     const input = document.getElementById('f');
     input.addEventListener('change', () => input.files[0] && show(input.files[0], 'chosen'));
     const drop = document.getElementById('drop');
     drop.addEventListener('dragover', (event) => event.preventDefault());
     drop.addEventListener('drop', (event) => {
       event.preventDefault();
       const file = event.dataTransfer.files[0];
       if (file) show(file, 'dropped');
     });
     report('ready:upload');`,
  ),
  // The whole middle of the page is the button; each press toggles its colour and label.
  '/button': page(
    `<button id="b" style="position:fixed;left:25%;top:25%;width:50%;height:50%;font-size:48px;background:#2a6">
       Press me</button>`,
    `let presses = 0;
     document.getElementById('b').addEventListener('pointerdown', (event) => {
       presses++;
       event.target.style.background = presses % 2 ? '#c33' : '#2a6';
       event.target.textContent = 'Pressed ' + presses;
       report('clicked');
     });
     report('ready:button');`,
  ),
  '/form': page(
    `<form action="/submitted" method="get">
       <input name="q" autocomplete="off" style="display:block;width:100%;height:120px;font-size:48px">
     </form>`,
    `report('ready:form');`,
  ),
  '/popup': page(
    `<a href="/animated" target="_blank" style="position:fixed;inset:0;display:block">open a new window</a>`,
    `report('ready:popup');`,
  ),
  '/check-cookie': page('cookie checked'),
  // A press asks for what a browser would ask its user about in a bubble over the page; each answer is reported.
  '/ask': page(
    '<button id="b" style="position:fixed;inset:0;font-size:48px">ask</button>',
    `const ask = (name, request) =>
       new Promise((resolve) => resolve(request())).then(
         () => report('ask:' + name + ':granted'),
         (error) => report('ask:' + name + ':' + error.name),
       );
     document.getElementById('b').addEventListener('pointerdown', () => {
       ask('fonts', () => window.queryLocalFonts());
       ask('screens', () => window.getScreenDetails());
       ask('midi', () => navigator.requestMIDIAccess({ sysex: true }));
     });
     report('ready:ask');`,
  ),
  // A page that renames itself after it loaded, as single-page sites do.
  '/retitle': page('renames itself', `setTimeout(() => { document.title = 'renamed'; }, 300);`),
  // A still page that reports every key it gets, tagged with ?tag= so each room's keys are told apart.
  '/keys': page(
    '<p style="margin:40px">Keys reach this page</p>',
    `const tag = new URLSearchParams(location.search).get('tag');
     addEventListener('keydown', (event) => report('key:' + tag + ':' + event.key));
     report('ready:' + tag);`,
  ),
  // The page's own idea of its size, to check that the room's picture is exactly the page.
  // Its size when it loads and after every resize (a busy machine may map the window after the page loaded).
  '/size': page(
    'size',
    `const size = () => report('size:' + innerWidth + 'x' + innerHeight + ':' + screen.width + 'x' + screen.height);
     size(); addEventListener('resize', size);`,
  ),
  // A steady 440 Hz tone from the moment the page loads (the room browser allows autoplay), over an animation.
  '/tone': page(
    '<canvas id="c" width="320" height="180" style="display:block;width:100%;height:100%"></canvas>',
    `${TONE}
     report('tone:' + audio.state);
     const ctx = document.getElementById('c').getContext('2d');
     let n = 0;
     (function draw() {
       n++;
       ctx.fillStyle = 'hsl(' + (n * 5 % 360) + ',70%,50%)';
       ctx.fillRect(0, 0, 320, 180);
       ctx.fillStyle = '#fff';
       ctx.fillRect((n * 4) % 320, 60, 40, 60);
       requestAnimationFrame(draw);
     })();`,
  ),
  // Fresh random blocks every frame: no encoder can predict them, so the stream uses all the bitrate it may.
  '/noise': page(
    NOISE_CANVAS,
    `${NOISE}
     report('ready:noise');`,
  ),
  // The noise with the tone under it: a picture that needs every bit of the room's bitrate, and steady sound, as a
  // video would give a viewer on a slow link.
  '/noise-tone': page(
    NOISE_CANVAS,
    `${TONE}
     ${NOISE}
     report('noise-tone:' + audio.state);`,
  ),
  // Black and silent; once a second the page turns white and beeps at the same moment, for 300 ms. Picture and
  // sound of the same event, for measuring their offset.
  '/flash': page(
    '',
    `const audio = new AudioContext();
     const tone = audio.createOscillator();
     const gain = audio.createGain();
     tone.frequency.value = 880;
     gain.gain.value = 0;
     tone.connect(gain).connect(audio.destination);
     tone.start();
     document.body.style.background = '#000';
     setInterval(() => {
       gain.gain.setValueAtTime(0.8, audio.currentTime);
       document.body.style.background = '#fff';
       setTimeout(() => {
         gain.gain.setValueAtTime(0, audio.currentTime);
         document.body.style.background = '#000';
       }, 300);
     }, 1000);`,
  ),
  // Text to copy out of the room: the field is focused with its text selected once the page loads.
  '/copy': page(
    `<textarea id="t" style="width:90%;height:50%;font-size:32px">Copied out of the room 房间里复制的文字</textarea>`,
    `const field = document.getElementById('t');
     field.focus();
     field.select();
     report('ready:copy');`,
  ),
};

/**
 * GET /file?name=…&size=…: an attachment of `size` bytes (byte i is i % 251), named by the Content-Disposition;
 * `length=0` leaves the size unannounced. Sent as fast as it is read, so a cancelled download stops the sending.
 */
function sendFile(url: URL, response: ServerResponse): void {
  const size = Number(url.searchParams.get('size') ?? '0');
  const name = url.searchParams.get('name') ?? 'file.bin';
  response.setHeader('content-type', url.searchParams.get('type') ?? 'application/octet-stream');
  response.setHeader('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(name)}`);
  if (url.searchParams.get('length') !== '0') response.setHeader('content-length', String(size));
  let sent = 0;
  const write = () => {
    while (sent < size) {
      const chunk = Buffer.alloc(Math.min(64 * 1024, size - sent));
      for (let i = 0; i < chunk.length; i++) chunk[i] = (sent + i) % 251;
      sent += chunk.length;
      if (!response.write(chunk)) {
        response.once('drain', write);
        return;
      }
    }
    response.end();
  };
  response.once('close', () => response.off('drain', write));
  write();
}

/** The bytes /file sends for `size`. */
export function testFileBytes(size: number): Buffer {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i++) bytes[i] = i % 251;
  return bytes;
}

export async function startTestPages(): Promise<TTestPages> {
  const events: string[] = [];
  const waiters = new Set<() => void>();
  const record = (event: string) => {
    events.push(event);
    for (const wake of waiters) wake();
  };

  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    response.setHeader('cache-control', 'no-store');
    if (url.pathname.startsWith('/event/')) {
      record(decodeURIComponent(url.pathname.slice('/event/'.length)));
      response.end();
      return;
    }
    if (url.pathname === '/file') {
      record(`file:${url.searchParams.get('name') ?? ''}`);
      sendFile(url, response);
      return;
    }
    if (url.pathname === '/submitted') record(`submitted:${url.searchParams.get('q') ?? ''}`);
    if (url.pathname === '/set-cookie') {
      response.setHeader('set-cookie', 'room=kept; Max-Age=3600; Path=/');
      record(`set-cookie:${url.searchParams.get('as') ?? ''}`);
    }
    if (url.pathname === '/check-cookie') {
      record(`cookie:${url.searchParams.get('as') ?? ''}:${request.headers.cookie ?? ''}`);
    }
    response.setHeader('content-type', 'text/html; charset=utf-8');
    response.end(PAGES[url.pathname] ?? page(url.pathname));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('test pages did not get a port');
  const hostPort = `127.0.0.1:${address.port}`;
  const origin = `http://${hostPort}`;

  return {
    origin,
    hostPort,
    url: (path) => `${origin}${path}`,
    events,
    async waitForEvent(prefix, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = events.find((event) => event.startsWith(prefix));
        if (found !== undefined) return found;
        const left = deadline - Date.now();
        if (left <= 0)
          throw new Error(`no "${prefix}" event within ${timeoutMs} ms; saw ${JSON.stringify(events)}`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(wake, left);
          waiters.add(wake);
        });
      }
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
