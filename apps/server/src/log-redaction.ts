// What the server's log keeps of a request's URL and of an error. Scripts may pass a session token, room ticket,
// password, e-mail code or captcha pass_token in a URL; logs keep the URL without them. tRPC queries carry their
// input as JSON in `?input=` (the share page's room password travels that way), so the same fields are hidden
// inside it too.
import { stdSerializers } from 'pino';

/** A field is secret when its name holds one of these (case aside): `newPassword`, `pass_token`, `code`, … */
const SECRET_NAME = '(?:password|passwd|token|ticket|secret|captcha_output|code)';
const QUERY_SECRET = new RegExp(`([?&][^=&#]*?${SECRET_NAME}[^=&#]*=)[^&#]*`, 'gi');
const JSON_SECRET = new RegExp(
  `("[^"\\\\]*?${SECRET_NAME}[^"\\\\]*"\\s*:\\s*)(?:"(?:[^"\\\\]|\\\\.)*"|-?\\d[\\d.eE+-]*)`,
  'gi',
);
const TRPC_INPUT = /([?&]input=)([^&#]*)/g;
/**
 * An administrator's one-time link that signs a browser in as a user carries its token in the path
 * (/admintologinuser/{token}).
 */
const LOGIN_LINK_PATH = /(\/admintologinuser\/)[^/?#]+/gi;

function redactJsonInput(encoded: string): string {
  let json: string;
  try {
    json = decodeURIComponent(encoded);
  } catch {
    // Undecodable: nothing in it can be told apart, so none of it is kept.
    return '[redacted]';
  }
  const redacted = json.replace(JSON_SECRET, '$1"[redacted]"');
  return redacted === json ? encoded : encodeURIComponent(redacted);
}

export function redactQuerySecrets(url: string): string {
  return url
    .replace(LOGIN_LINK_PATH, '$1[redacted]')
    .replace(TRPC_INPUT, (_whole, prefix: string, value: string) => prefix + redactJsonInput(value))
    .replace(QUERY_SECRET, '$1[redacted]');
}

/**
 * An error as pino writes it, without the database client that an error of `pg` carries: that is the client's
 * whole connection state, several kilobytes on every line while the database is out of reach (the job queue logs
 * each of its failed polls), and no use to whoever reads the log.
 */
export function serializeError(error: Error): ReturnType<typeof stdSerializers.err> {
  const { client: _client, ...kept } = stdSerializers.err(error) as ReturnType<typeof stdSerializers.err> & {
    client?: unknown;
  };
  return kept;
}
