// Runs a program as one of a room's processes, the way the room's own helpers start (room-sandbox-exec.sh): for
// tests that try what a process that broke out of its renderer would try.
import { execFile } from 'node:child_process';
import type { RoomSandbox } from '../../rooms/sandbox/room-sandbox';

export interface TRoomRun {
  code: number;
  signal: string | null;
  output: string;
}

/** Resolves with how the program ended and its output (stdout then stderr). */
export function runInRoom(
  sandbox: RoomSandbox,
  program: string,
  args: string[],
  input?: string,
  timeoutMs = 15_000,
): Promise<TRoomRun> {
  const { file, args: argv } = sandbox.command(program, args);
  return new Promise((resolve) => {
    const child = execFile(
      file,
      argv,
      { env: sandbox.environment(), timeout: timeoutMs },
      (error, stdout, stderr) => {
        const failure = error as { code?: number | null; signal?: string | null } | null;
        resolve({
          code: failure ? (failure.code ?? 1) : 0,
          signal: failure?.signal ?? null,
          output: `${stdout}${stderr}`,
        });
      },
    );
    // A program that never reads its input may end before it is written.
    child.stdin?.on('error', () => {});
    child.stdin?.end(input ?? '');
  });
}
