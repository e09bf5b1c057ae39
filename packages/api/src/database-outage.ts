// Whether a failure is PostgreSQL being out of reach (down, restarting, the network to it cut) rather than a
// bug: such requests answer 503 "briefly unavailable" — nothing was written, the caller may simply try again —
// and the server recovers by itself once the database is back (the pool opens new connections).

/** Node's socket errors and PostgreSQL's connection-exception and shutdown SQLSTATEs. */
const OUTAGE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '57P01',
  '57P02',
  '57P03',
]);

const OUTAGE_TEXT =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connect ECONNREFUSED|the database system is (starting up|shutting down)/i;

export function isDatabaseOutage(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current = error;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    const { code, message, name } = current as { code?: unknown; message?: unknown; name?: unknown };
    if (typeof code === 'string' && OUTAGE_CODES.has(code)) return true;
    if (name === 'ConnectionException') return true;
    if (typeof message === 'string' && OUTAGE_TEXT.test(message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
