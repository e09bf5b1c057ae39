// Memory in use on this machine. Linux's MemAvailable counts reclaimable page cache as free, which is what an
// operator means by "in use"; os.freemem() does not, and would show a busy-looking machine after any file I/O.
import { readFileSync } from 'node:fs';
import { freemem, totalmem } from 'node:os';

export function memoryInUse(meminfo = readMeminfo()): { totalBytes: number; usedBytes: number } {
  const totalBytes = totalmem();
  const available = meminfo?.match(/^MemAvailable:\s+(\d+) kB$/m)?.[1];
  const availableBytes = available === undefined ? freemem() : Number(available) * 1024;
  return { totalBytes, usedBytes: Math.max(0, totalBytes - availableBytes) };
}

function readMeminfo(): string | undefined {
  try {
    return readFileSync('/proc/meminfo', 'utf8');
  } catch {
    return undefined;
  }
}
