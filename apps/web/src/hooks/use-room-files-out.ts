// What the room hands its controller, shown on the controller's page: a download the room's browser finished is
// offered with its name, size and type, and saved by this browser only when the person says so (one fetch of a
// single-use address); text copied in the room is put on this computer's clipboard, as pasting goes the other way.
import { useLingui } from '@lingui/react/macro';
import { showToast } from '@rooms/ui/toaster';
import { useEffect } from 'react';
import { formatFileSize } from '../lib/room/file-size';
import type { RoomConnection } from '../lib/room/room-connection';
import type { TFilesOutEvent } from '../lib/room/room-moments';

/** Saves the offered file as a download of this browser: the server answers it as an attachment. */
function save(url: string, name: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
}

export function useRoomFilesOut(connection: RoomConnection | null): void {
  const { i18n, t } = useLingui();
  useEffect(() => {
    if (!connection) return;
    const onEvent = (event: TFilesOutEvent) => {
      switch (event.type) {
        case 'download/offered': {
          const size = formatFileSize(event.size, i18n.locale);
          showToast({
            severity: 'info',
            summary: t`The room downloaded a file`,
            detail: t`${event.name} (${size}, ${event.mime})`,
            // Until the server lets the offer go.
            life: Math.max(1000, event.expiresAt - Date.now()),
            actions: [
              { label: t`Download`, primary: true, onClick: () => save(event.url, event.name) },
              { label: t`Dismiss`, onClick: () => {} },
            ],
          });
          return;
        }
        case 'download/refused': {
          const limit = formatFileSize(event.maxBytes, i18n.locale);
          showToast({
            severity: 'warn',
            summary: t`A download was stopped in the room`,
            detail:
              event.reason === 'too-large'
                ? t`${event.name} is larger than ${limit}, the most a room can hand out`
                : event.reason === 'unavailable'
                  ? t`${event.name} stayed in the room: this server cannot hand files out of its rooms`
                  : t`${event.name} could not be downloaded in the room`,
          });
          return;
        }
        case 'clipboard/copied':
          navigator.clipboard.writeText(event.text).then(
            () =>
              showToast({
                severity: 'success',
                summary: t`Copied from the room`,
                detail: event.truncated
                  ? t`Only the first ${event.text.length} characters were copied`
                  : undefined,
              }),
            (error: unknown) =>
              showToast({
                severity: 'error',
                summary: t`Could not copy from the room`,
                detail:
                  error instanceof Error && error.name === 'NotAllowedError'
                    ? t`This browser did not allow the page to use the clipboard`
                    : String(error),
              }),
          );
          return;
      }
    };
    return connection.onFilesOut(onEvent);
  }, [connection, i18n, t]);
}
