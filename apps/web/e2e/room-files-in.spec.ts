// A file from this computer into the room, in real Chromium against the real server, in English and in Chinese:
// the room's page has a file input; the driver's click on it in the picture opens the page's file chooser, which
// the room tells the driver about; the driver picks a file through this browser's own file chooser, and the room's
// page shows the file's name and size. A file dropped on the picture reaches the page's drop zone.
import type { BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { holdControl, startSharedRoom, type TSharedRoom } from './room-support';
import { screenshots, toast } from './support';

/** The room's page: a file input over the top half, a drop zone below, and the chosen file's name and size. */
const UPLOAD_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>upload page</title></head>
<body style="margin:0;font:32px sans-serif">
<input id="f" type="file" style="position:fixed;left:5%;top:5%;width:90%;height:40%;font-size:32px">
<div id="drop" style="position:fixed;left:5%;top:50%;width:90%;height:25%;border:6px dashed #36c">Drop a file here</div>
<p id="out" style="position:fixed;left:5%;top:78%;margin:0">No file yet</p>
<script>
const show = (file, how) => {
  document.getElementById('out').textContent = file.name + ' — ' + file.size + ' bytes';
  fetch('/event/' + how + '/' + encodeURIComponent(file.name) + '/' + file.size);
};
const input = document.getElementById('f');
input.addEventListener('change', () => input.files[0] && show(input.files[0], 'chosen'));
const drop = document.getElementById('drop');
drop.addEventListener('dragover', (event) => event.preventDefault());
drop.addEventListener('drop', (event) => {
  event.preventDefault();
  if (event.dataTransfer.files[0]) show(event.dataTransfer.files[0], 'dropped');
});
fetch('/event/upload-ready');
</script></body></html>`;

let shared: TSharedRoom;
let opened: BrowserContext[] = [];

beforeAll(async () => {
  shared = await startSharedRoom({ html: UPLOAD_PAGE, name: 'files-in' });
});

afterEach(async () => {
  await Promise.all(opened.map((context) => context.close()));
  opened = [];
});

afterAll(async () => {
  await shared?.close();
});

const count = (path: string) => shared.pages.events.filter((event) => event === path).length;

describe('a file from this computer into the room', () => {
  it('hands the page the file the driver picks in a real file chooser, in English and in Chinese', async () => {
    const texts = {
      'en-US': {
        asks: 'The page asks for a file',
        choose: 'Choose a file',
        has: "The room's page has your file",
      },
      'zh-CN': { asks: '页面请求一个文件', choose: '选择文件', has: '房间里的页面已收到你的文件' },
    } as const;
    for (const language of ['en-US', 'zh-CN'] as const) {
      const { context, page } = await shared.ownerInRoom();
      opened.push(context);
      if (language === 'zh-CN') {
        await context.addCookies([{ name: 'language', value: 'zh-CN', url: shared.kit.server.url }]);
        await page.reload();
        await holdControl(page);
      }
      const said = texts[language];
      // The room's browser opens the page with the file input afresh.
      const ready = count('/event/upload-ready');
      await page.getByTestId('browser-address').fill(`${shared.pages.origin}/upload`);
      await page.getByTestId('browser-address').press('Enter');
      await expect.poll(() => count('/event/upload-ready'), { timeout: 20_000 }).toBe(ready + 1);

      // A click on the file input in the picture: the room's page asks for a file, and this page says so.
      const canvas = page.getByTestId('room-canvas');
      const box = (await canvas.boundingBox())!;
      await canvas.click({ position: { x: box.width / 2, y: box.height * 0.2 } });
      await toast(page, said.asks);
      await screenshots(page, `room-file-asked-${language}`);

      // This browser's own file chooser opens on the person's click, and the picked file goes up to the room.
      const name = language === 'en-US' ? 'holiday plan.txt' : '旅行计划.txt';
      const content = Buffer.from(`${name}: ${'plans '.repeat(20_000)}`);
      const [chooser] = await Promise.all([
        page.waitForEvent('filechooser'),
        page.getByRole('button', { name: said.choose, exact: true }).click(),
      ]);
      await chooser.setFiles({ name, mimeType: 'text/plain', buffer: content });
      await toast(page, said.has);
      const chosen = `/event/chosen/${encodeURIComponent(name)}/${content.length}`;
      await expect.poll(() => count(chosen), { timeout: 20_000 }).toBe(1);
      // The picture shows the page with the file's name and size.
      await page.waitForTimeout(500);
      await screenshots(page, `room-file-chosen-${language}`);
      await context.close();
      opened = opened.filter((open) => open !== context);
    }
  });

  it('drops a file dragged onto the picture into the page where it was dropped', async () => {
    const { context, page } = await shared.ownerInRoom();
    opened.push(context);
    const ready = count('/event/upload-ready');
    await page.getByTestId('browser-address').fill(`${shared.pages.origin}/upload`);
    await page.getByTestId('browser-address').press('Enter');
    await expect.poll(() => count('/event/upload-ready'), { timeout: 20_000 }).toBe(ready + 1);

    // What the browser does when a file from the desktop is let go over the picture: dragover, then drop.
    const canvas = page.getByTestId('room-canvas');
    await canvas.evaluate((element) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['dropped notes'], 'notes.txt', { type: 'text/plain' }));
      const shown = element.getBoundingClientRect();
      const at = { clientX: shown.left + shown.width / 2, clientY: shown.top + shown.height * 0.62 };
      for (const type of ['dragenter', 'dragover', 'drop']) {
        element.dispatchEvent(
          new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer, ...at }),
        );
      }
    });
    await toast(page, "The room's page has your file");
    await expect.poll(() => count('/event/dropped/notes.txt/13'), { timeout: 20_000 }).toBe(1);
  });
});
