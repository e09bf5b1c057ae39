// The page a room shows when an address cannot be opened: what happened (no such name, refused, no answer, blocked
// by the room's policy) in both of the product's languages, since everyone in the room sees the same page. The
// proxy serves it for http:// addresses; for https:// Chromium shows no proxy's answer, so the room puts it over
// Chromium's own error page (engine/tabs.ts) from what the proxy remembers of the address (FailureMemory).

export type TEgressFailure = 'name-not-found' | 'refused' | 'timeout' | 'unreachable' | 'blocked';

/** The HTTP status the proxy answers a plain http:// request with, per failure. */
export const FAILURE_STATUS: Record<TEgressFailure, 403 | 502 | 504> = {
  'name-not-found': 502,
  refused: 502,
  timeout: 504,
  unreachable: 502,
  blocked: 403,
};

/** Why a connection to a checked address failed, from the socket's error. */
export function connectFailure(error: unknown): TEgressFailure {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ECONNREFUSED') return 'refused';
  if (code === 'ETIMEDOUT' || /timed out/i.test(String((error as Error | null)?.message))) return 'timeout';
  return 'unreachable';
}

interface TWording {
  title: string;
  explanation: string;
}

const WORDING: Record<TEgressFailure, { en: TWording; zh: TWording }> = {
  'name-not-found': {
    en: {
      title: 'This site can’t be found',
      explanation: 'No server has the name {host}. Check the address for a typo.',
    },
    zh: { title: '找不到该网站', explanation: '没有名为 {host} 的服务器。请检查地址是否输入有误。' },
  },
  refused: {
    en: {
      title: 'This site refused to connect',
      explanation: 'The server {host} is there but does not accept connections on this port.',
    },
    zh: { title: '该网站拒绝了连接', explanation: '服务器 {host} 存在，但不接受此端口上的连接。' },
  },
  timeout: {
    en: {
      title: 'This site didn’t answer',
      explanation: 'The server {host} did not respond in time. It may be down or busy; try again later.',
    },
    zh: {
      title: '该网站没有响应',
      explanation: '服务器 {host} 未能及时响应，可能已关闭或繁忙，请稍后再试。',
    },
  },
  unreachable: {
    en: {
      title: 'This site can’t be reached',
      explanation: 'The network could not get to the server {host}.',
    },
    zh: { title: '无法访问该网站', explanation: '网络无法连接到服务器 {host}。' },
  },
  blocked: {
    en: {
      title: 'This address is blocked in rooms',
      explanation:
        'The room browser can only open public websites. {host} is on a private network or this server’s own, which rooms cannot reach.',
    },
    zh: {
      title: '房间内禁止访问此地址',
      explanation: '房间浏览器只能打开公共网站。{host} 位于私有网络或本服务器自身的网络中，房间无法访问。',
    },
  },
};

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char,
  );

/** The host of an address for the page's text; the address itself when it has none. */
function hostOf(address: string): string {
  try {
    return new URL(address).host || address;
  } catch {
    return address;
  }
}

/** The whole page for `address`, which is shown as typed (escaped: it comes from whoever drives the room). */
export function failurePage(address: string, failure: TEgressFailure): string {
  const host = `<strong>${escapeHtml(hostOf(address))}</strong>`;
  const { en, zh } = WORDING[failure];
  const section = (lang: string, wording: TWording) =>
    `<section lang="${lang}"><h1>${escapeHtml(wording.title)}</h1><p>${escapeHtml(wording.explanation).replace('{host}', host)}</p></section>`;
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${escapeHtml(en.title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:38em;margin:4em auto;padding:0 1em;color:#222}
h1{font-size:1.4em;margin:0 0 .4em}section{margin-bottom:2em}code{word-break:break-all;color:#555}</style></head>
<body data-egress-failure="${failure}">
${section('en', en)}
${section('zh-CN', zh)}
<p><code>${escapeHtml(address)}</code></p>
</body></html>
`;
}

/** How long a failure of an address is remembered for the page that tried it. */
const REMEMBER_MS = 60_000;
/** Hosts remembered at once per room run: a page trying many names keeps only the latest. */
const MAX_REMEMBERED = 64;

/** The latest failures through one door of the proxy (one room run), by host. */
export class FailureMemory {
  private readonly failures = new Map<string, { failure: TEgressFailure; at: number }>();

  record(host: string, failure: TEgressFailure, now = Date.now()): void {
    const key = host.toLowerCase();
    this.failures.delete(key);
    this.failures.set(key, { failure, at: now });
    if (this.failures.size > MAX_REMEMBERED) {
      const oldest = this.failures.keys().next().value;
      if (oldest !== undefined) this.failures.delete(oldest);
    }
  }

  /** The failure of the host named in `address` within the last minute, if any. */
  lookup(address: string, now = Date.now()): TEgressFailure | undefined {
    let host: string;
    try {
      host = new URL(address).hostname.replace(/^\[|\]$/g, '').toLowerCase();
    } catch {
      return undefined;
    }
    const found = this.failures.get(host);
    if (!found || now - found.at > REMEMBER_MS) return undefined;
    return found.failure;
  }
}
