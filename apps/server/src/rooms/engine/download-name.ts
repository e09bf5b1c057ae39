// A downloaded file's name and type as the controller is shown them and their browser saves them. The name comes
// from the site (Content-Disposition, the URL, a page's download attribute), so it may carry anything: a path
// ("../../etc/passwd", "C:\\x"), control characters, bidi overrides that flip "gpj.exe" into "exe.jpg", a name
// Windows reserves. Only the last path segment survives, as visible text; the server never uses it as a path.
import { DOWNLOAD_NAME_MAX_LENGTH } from '@rooms/api/room-protocol';

/** Control characters, format characters (bidi overrides, zero-width) and other default-ignorables. */
const INVISIBLE_OR_CONTROL = /[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;
/** Characters Windows and macOS refuse in a file name, besides the path separators handled first. */
const RESERVED_CHARACTERS = /[<>:"|?*]/g;
/** Device names Windows will not create a file under, whatever the extension. */
const RESERVED_WINDOWS_NAME = /^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i;
const FALLBACK_NAME = 'download';

export function sanitiseDownloadName(raw: string): string {
  // Both separators: a name written for another system ("..\\..\\x") is a path there too.
  const lastSegment = raw.split(/[/\\]/).pop() ?? '';
  let name = lastSegment
    .normalize('NFC')
    .replace(INVISIBLE_OR_CONTROL, '')
    .replace(RESERVED_CHARACTERS, '_')
    .replace(/\s+/g, ' ')
    .trim()
    // Leading dots hide the file (".bashrc") or walk up ("..") on the controller's side; trailing dots and
    // spaces are dropped by Windows and can join an extension to the name.
    .replace(/^[.\s]+/, '')
    .replace(/[.\s]+$/, '');
  if (RESERVED_WINDOWS_NAME.test(name)) name = `_${name}`;
  if (name.length > DOWNLOAD_NAME_MAX_LENGTH) name = shorten(name);
  return name === '' ? FALLBACK_NAME : name;
}

/** Cut to the limit keeping a short extension, so the controller's system still knows what the file is. */
function shorten(name: string): string {
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 && name.length - dot <= 10 ? name.slice(dot) : '';
  const stem = [...name.slice(0, name.length - extension.length)];
  const room = DOWNLOAD_NAME_MAX_LENGTH - extension.length;
  // By code points, so a cut never leaves half a surrogate pair.
  let cut = '';
  for (const char of stem) {
    if (cut.length + char.length > room) break;
    cut += char;
  }
  return `${cut.trimEnd()}${extension}`;
}

/** Types told by the name's extension: shown to the controller, and sent as the Content-Type of the fetch. */
const TYPES: Readonly<Record<string, string>> = {
  txt: 'text/plain',
  csv: 'text/csv',
  pdf: 'application/pdf',
  json: 'application/json',
  zip: 'application/zip',
  gz: 'application/gzip',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  mp3: 'audio/mpeg',
  mp4: 'video/mp4',
  webm: 'video/webm',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};
/** Anything not in the table (an .html, .svg or .exe among them) is bytes and nothing more. */
export const OPAQUE_TYPE = 'application/octet-stream';

export function downloadType(name: string): string {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return OPAQUE_TYPE;
  return TYPES[name.slice(dot + 1).toLowerCase()] ?? OPAQUE_TYPE;
}

/**
 * The Content-Disposition of the fetch: always an attachment, with an ASCII fallback name and the real one in
 * RFC 5987 form, so quotes or non-Latin letters in the name can neither break the header nor be lost.
 */
export function attachmentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
