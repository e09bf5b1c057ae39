// The addresses links on screen start with: the configured PUBLIC_URL and SHARE_URL, or, for one the operator
// left unset, the address this request came by. E-mails keep the configured address: they are read elsewhere.
import type { TContext } from './context';

export function siteUrls(ctx: Pick<TContext, 'services' | 'request'>): {
  publicUrl: string;
  shareUrl: string;
} {
  const { config } = ctx.services;
  const origin = ctx.request.origin;
  const fixed = config.fixed ?? { publicUrl: true, shareUrl: true };
  const publicUrl = fixed.publicUrl || !origin ? config.publicUrl : origin;
  const shareUrl = fixed.shareUrl ? config.shareUrl : publicUrl;
  return { publicUrl, shareUrl };
}
