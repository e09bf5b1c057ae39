import { describe, expect, it } from 'vitest';
import { formatFileSize } from './file-size';

describe('a file size for people', () => {
  it('picks the unit that keeps the number short, in the reader’s number format', () => {
    expect(formatFileSize(0, 'en-US')).toBe('0 byte');
    expect(formatFileSize(512, 'en-US')).toBe('512 byte');
    expect(formatFileSize(300_000, 'en-US')).toBe('300 kB');
    expect(formatFileSize(1_536_000, 'en-US')).toBe('1.5 MB');
    expect(formatFileSize(104_857_600, 'en-US')).toBe('104.9 MB');
    expect(formatFileSize(1_234_567, 'zh-CN')).toBe('1.2 MB');
    expect(formatFileSize(1_234_567, 'de-DE')).toBe('1,2 MB');
  });
});
