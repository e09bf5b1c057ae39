import { DOWNLOAD_NAME_MAX_LENGTH } from '@rooms/api/room-protocol';
import { describe, expect, it } from 'vitest';
import { attachmentDisposition, downloadType, OPAQUE_TYPE, sanitiseDownloadName } from './download-name';

describe('a downloaded file’s name', () => {
  it('keeps an ordinary name as it is, in any script', () => {
    expect(sanitiseDownloadName('report 2026.pdf')).toBe('report 2026.pdf');
    expect(sanitiseDownloadName('季度报告.xlsx')).toBe('季度报告.xlsx');
  });

  it('keeps only the last segment of a path, with either separator', () => {
    expect(sanitiseDownloadName('../../etc/passwd')).toBe('passwd');
    expect(sanitiseDownloadName('..\\..\\Windows\\system32\\evil.dll')).toBe('evil.dll');
    expect(sanitiseDownloadName('/absolute/path/notes.txt')).toBe('notes.txt');
    expect(sanitiseDownloadName('C:\\Users\\me\\a.txt')).toBe('a.txt');
  });

  it('gives a name that is only dots, separators or nothing a plain one', () => {
    for (const raw of ['..', '.', '../', '', '   ', '/', '\\\\', '\u0000\u0001'])
      expect(sanitiseDownloadName(raw), JSON.stringify(raw)).toBe('download');
  });

  it('drops control characters, bidi overrides and zero-width characters', () => {
    // "invoice\u202Egpj.exe" shows as "invoiceexe.jpg" in a bidi-aware list.
    expect(sanitiseDownloadName('invoice\u202Egpj.exe')).toBe('invoicegpj.exe');
    expect(sanitiseDownloadName('a\u0000b\u001bc\u007f.txt')).toBe('abc.txt');
    expect(sanitiseDownloadName('zero\u200Bwidth\uFEFF.txt')).toBe('zerowidth.txt');
    expect(sanitiseDownloadName('line\nbreak\r\ttab.txt')).toBe('linebreaktab.txt');
  });

  it('does not hide the file or leave a trailing dot, and renames what Windows reserves', () => {
    expect(sanitiseDownloadName('.bashrc')).toBe('bashrc');
    expect(sanitiseDownloadName('setup.exe. . .')).toBe('setup.exe');
    expect(sanitiseDownloadName('CON')).toBe('_CON');
    expect(sanitiseDownloadName('nul.txt')).toBe('_nul.txt');
    expect(sanitiseDownloadName('what?<is>this:"|*.txt')).toBe('what__is_this____.txt');
  });

  it('shortens a long name to the limit and keeps its extension', () => {
    const name = sanitiseDownloadName(`${'长'.repeat(300)}.tar.gz`);
    expect(name.length).toBeLessThanOrEqual(DOWNLOAD_NAME_MAX_LENGTH);
    expect(name.endsWith('.gz')).toBe(true);
    // Never half of a surrogate pair.
    const emoji = sanitiseDownloadName(`${'😀'.repeat(200)}.txt`);
    expect(emoji.length).toBeLessThanOrEqual(DOWNLOAD_NAME_MAX_LENGTH);
    expect(emoji).toMatch(/^(😀)+\.txt$/u);
  });
});

describe('a downloaded file’s type', () => {
  it('is told by a known extension and is opaque bytes otherwise, markup and programs included', () => {
    expect(downloadType('a.PDF')).toBe('application/pdf');
    expect(downloadType('a.txt')).toBe('text/plain');
    for (const name of ['page.html', 'image.svg', 'setup.exe', 'script.js', 'noextension', '.hidden'])
      expect(downloadType(name), name).toBe(OPAQUE_TYPE);
  });
});

describe('the attachment header', () => {
  it('is always an attachment, with an ASCII fallback and the exact name encoded', () => {
    expect(attachmentDisposition('a "quoted" 名字.txt')).toBe(
      `attachment; filename="a _quoted_ __.txt"; filename*=UTF-8''a%20%22quoted%22%20%E5%90%8D%E5%AD%97.txt`,
    );
    expect(attachmentDisposition("it's (1).txt")).toBe(
      `attachment; filename="it's (1).txt"; filename*=UTF-8''it%27s%20%281%29.txt`,
    );
  });
});
