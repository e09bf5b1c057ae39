// The one fetch layer for tRPC and REST calls: the session token raw in Authorization, the 30 000 ms timeout of
// every call, and the 401 rule (clear token, username and avatar, then go to login).
import { clearSession, currentToken } from './session';

export const API_TIMEOUT_MS = 30_000;

type TUnauthorizedHandler = () => void;
let onUnauthorized: TUnauthorizedHandler = () => {};

/** The app installs the navigation to login once the router exists. */
export function setUnauthorizedHandler(handler: TUnauthorizedHandler): void {
  onUnauthorized = handler;
}

export function handleUnauthorized(): void {
  clearSession();
  onUnauthorized();
}

/** `withSession: false` asks as nobody in particular, whoever is signed in (a room page that entered as a guest). */
export async function apiFetch(
  input: RequestInfo | URL,
  init: RequestInit = {},
  { withSession = true }: { withSession?: boolean } = {},
): Promise<Response> {
  const headers = new Headers(init.headers);
  const token = withSession ? currentToken() : null;
  if (token && !headers.has('Authorization')) headers.set('Authorization', token);
  const timeout = AbortSignal.timeout(API_TIMEOUT_MS);
  const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
  const response = await fetch(input, { ...init, headers, signal, credentials: 'include' });
  if (response.status === 401) handleUnauthorized();
  return response;
}

export class RestError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'RestError';
  }
}

/** A call to the REST compatibility layer: `{ msg: 'success', data }` or `{ msg: 'error', data: text }`. */
export async function rest<T>(method: 'GET' | 'POST', path: `/api/${string}`, body?: unknown): Promise<T> {
  const response = await apiFetch(path, {
    method,
    headers: body === undefined ? undefined : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await response.json().catch(() => null)) as { msg?: string; data?: unknown } | null;
  if (envelope?.msg === 'success') return envelope.data as T;
  throw new RestError(typeof envelope?.data === 'string' ? envelope.data : 'Request failed', response.status);
}
