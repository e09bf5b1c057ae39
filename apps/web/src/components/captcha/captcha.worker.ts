// Solves the self-hosted proof-of-work challenge off the main thread so the page stays responsive.
import { solveChallenge } from '@rooms/api/captcha';

export type TChallenge = Parameters<typeof solveChallenge>[0];
export type TSolution = NonNullable<Awaited<ReturnType<typeof solveChallenge>>>;
export type TWorkerReply = { ok: true; solution: TSolution | null } | { ok: false; error: string };

self.onmessage = async (event: MessageEvent<TChallenge>) => {
  let reply: TWorkerReply;
  try {
    reply = { ok: true, solution: await solveChallenge(event.data) };
  } catch (error) {
    reply = { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  self.postMessage(reply);
};
