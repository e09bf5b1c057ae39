// The share pages of the ten social buttons of the share dialog: each gets the site address and a share
// text; some take a title; Tumblr also gets tags and the post type link; Email is a mailto link.
export type TShareTarget =
  | 'x'
  | 'facebook'
  | 'reddit'
  | 'whatsapp'
  | 'tumblr'
  | 'telegram'
  | 'email'
  | 'weibo'
  | 'qzone';

export function shareUrl(
  target: TShareTarget,
  input: { url: string; text: string; title: string; tags?: string },
): string {
  const url = encodeURIComponent(input.url);
  const text = encodeURIComponent(input.text);
  const title = encodeURIComponent(input.title);
  switch (target) {
    case 'x':
      return `https://twitter.com/intent/tweet?url=${url}&text=${text}`;
    case 'facebook':
      return `https://www.facebook.com/sharer/sharer.php?u=${url}&quote=${text}`;
    case 'reddit':
      return `https://www.reddit.com/submit?url=${url}&title=${title}`;
    case 'whatsapp':
      return `https://api.whatsapp.com/send?text=${encodeURIComponent(`${input.text} ${input.url}`)}`;
    case 'tumblr':
      return `https://www.tumblr.com/widgets/share/tool?canonicalUrl=${url}&title=${title}&caption=${text}&tags=${encodeURIComponent(input.tags ?? '')}&posttype=link`;
    case 'telegram':
      return `https://t.me/share/url?url=${url}&text=${text}`;
    case 'email':
      return `mailto:?subject=${title}&body=${encodeURIComponent(`${input.text}\n${input.url}`)}`;
    case 'weibo':
      return `https://service.weibo.com/share/share.php?url=${url}&title=${text}`;
    case 'qzone':
      return `https://sns.qzone.qq.com/cgi-bin/qzshare/cgi_qzshare_onekey?url=${url}&title=${title}&summary=${text}`;
  }
}

/**
 * A room's share link: `{shareDomain}/share/room/{id}`, with the password, when given, in the fragment.
 * Browsers never send a fragment to a server, so the password stays out of every access log on the way.
 */
export function roomShareLink(shareDomain: string, roomId: string, password?: string | null): string {
  const link = `${shareDomain.replace(/\/$/, '')}/share/room/${encodeURIComponent(roomId)}`;
  return password ? `${link}#password=${encodeURIComponent(password)}` : link;
}

/** The password a share link carries in its fragment (`#password=…`), if any. */
export function passwordFromHash(hash: string): string | null {
  const value = new URLSearchParams(hash.replace(/^#/, '')).get('password');
  return value || null;
}

/**
 * A room's knock link: the share link with the knock token in the fragment (`#knock=…`), kept out of access logs
 * like a password. Whoever opens it may ask to be let in, never enter by it alone.
 */
export function roomKnockLink(shareDomain: string, roomId: string, token: string): string {
  return `${roomShareLink(shareDomain, roomId)}#knock=${encodeURIComponent(token)}`;
}

/** The knock token a knock link carries in its fragment (`#knock=…`), if any. */
export function knockFromHash(hash: string): string | null {
  const value = new URLSearchParams(hash.replace(/^#/, '')).get('knock');
  return value || null;
}
