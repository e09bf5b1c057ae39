// Files from this computer into the room, on the controller's page: when a page in the room opens a file chooser,
// a notice offers this computer's own file chooser (a real <input type=file>, opened by the person's click); a
// file dragged onto the picture is dropped on the room's page at that point. Either way the file goes up on the
// room socket (lib/room/file-sender.ts) and the person is told when the page has it, or why not.
import { useLingui } from '@lingui/react/macro';
import type { TFileInRefusal } from '@rooms/api/room-protocol';
import { dismissToast, showToast } from '@rooms/ui/toaster';
import { type RefObject, useEffect, useRef } from 'react';
import { sendFileToRoom, type TFileSent, type TFileTarget } from '../lib/room/file-sender';
import { formatFileSize } from '../lib/room/file-size';
import { normalisePoint } from '../lib/room/picture-geometry';
import type { RoomConnection } from '../lib/room/room-connection';

/** Opens this browser's file chooser; `picked` gets the file, or null when the person closed it without one. */
function chooseFile(picked: (file: File | null) => void): void {
  const input = document.createElement('input');
  input.type = 'file';
  input.hidden = true;
  input.dataset.roomFileChooser = '';
  const done = (file: File | null) => {
    input.remove();
    picked(file);
  };
  input.addEventListener('change', () => done(input.files?.[0] ?? null), { once: true });
  input.addEventListener('cancel', () => done(null), { once: true });
  document.body.append(input);
  input.click();
}

export function useRoomFilesIn(
  connection: RoomConnection | null,
  canvas: RefObject<HTMLCanvasElement | null>,
  controlling: boolean,
): void {
  const { i18n, t } = useLingui();
  /** One file at a time goes up: the room takes one at a time. */
  const busy = useRef(false);

  useEffect(() => {
    if (!connection) return;
    const refusal = (reason: TFileInRefusal | 'disconnected', name: string, maxBytes: number | null) => {
      const limit = formatFileSize(maxBytes ?? 0, i18n.locale);
      switch (reason) {
        case 'too-large':
          return t`${name} is larger than ${limit}, the most this room takes`;
        case 'room-full':
          return t`The room keeps no more files until it is started again`;
        case 'not-controller':
          return t`Only the person in control of the room can hand it a file`;
        case 'no-request':
          return t`The page no longer asks for a file`;
        case 'busy':
          return t`Another file is on its way to the room; try again when it has arrived`;
        case 'disconnected':
          return t`The connection to the room was lost`;
        default:
          return t`${name} could not be handed to the room`;
      }
    };
    const send = async (file: File, target: TFileTarget) => {
      if (busy.current) return;
      busy.current = true;
      const { name } = file;
      const size = formatFileSize(file.size, i18n.locale);
      const sending = showToast({
        severity: 'info',
        summary: t`Sending a file to the room`,
        detail: t`${name} (${size})`,
        life: Number.POSITIVE_INFINITY,
      });
      let result: TFileSent;
      try {
        result = await sendFileToRoom(connection, file, target);
      } finally {
        busy.current = false;
        dismissToast(sending);
      }
      if (result.ok) {
        const name = result.name;
        const size = formatFileSize(result.size, i18n.locale);
        showToast({
          severity: 'success',
          summary: t`The room's page has your file`,
          detail: t`${name} (${size})`,
        });
      } else {
        showToast({
          severity: 'warn',
          summary: t`The file did not reach the room`,
          detail: refusal(result.reason, result.name, result.maxBytes),
          life: 8000,
        });
      }
    };
    const stop = connection.onFilesIn((event) => {
      if (event.type !== 'file/requested') return;
      const limit = formatFileSize(event.maxBytes, i18n.locale);
      showToast({
        severity: 'info',
        summary: t`The page asks for a file`,
        detail: t`Choose a file on this computer to hand to the room's page (at most ${limit})`,
        life: Number.POSITIVE_INFINITY,
        actions: [
          {
            label: t`Choose a file`,
            primary: true,
            onClick: () =>
              chooseFile((file) => {
                if (file) void send(file, { requestId: event.requestId });
                else connection.send({ type: 'file/cancel', requestId: event.requestId });
              }),
          },
          {
            label: t`Not now`,
            onClick: () => connection.send({ type: 'file/cancel', requestId: event.requestId }),
          },
        ],
      });
    });
    const picture = canvas.current;
    if (!picture || !controlling) return stop;
    // A file dragged over the picture may be dropped there; text or links dragged over it are not this.
    const onDragOver = (dragged: DragEvent) => {
      if (!dragged.dataTransfer?.types.includes('Files')) return;
      dragged.preventDefault();
      dragged.dataTransfer.dropEffect = 'copy';
    };
    const onDrop = (dropped: DragEvent) => {
      const file = dropped.dataTransfer?.files[0];
      if (!file) return;
      dropped.preventDefault();
      const at = normalisePoint({ x: dropped.clientX, y: dropped.clientY }, picture.getBoundingClientRect());
      void send(file, at);
    };
    picture.addEventListener('dragover', onDragOver);
    picture.addEventListener('drop', onDrop);
    return () => {
      stop();
      picture.removeEventListener('dragover', onDragOver);
      picture.removeEventListener('drop', onDrop);
    };
  }, [connection, canvas, controlling, i18n, t]);
}
