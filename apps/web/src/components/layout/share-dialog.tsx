import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@rooms/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@rooms/ui/dialog';
import { Input } from '@rooms/ui/input';
import { cn } from '@rooms/ui/lib/utils';
import { Tooltip, TooltipContent, TooltipTrigger } from '@rooms/ui/tooltip';
import { CopyIcon, HeartIcon, MailIcon, QrCodeIcon, Share2Icon } from 'lucide-react';
import { useState } from 'react';
import { copyToClipboard } from '../../lib/clipboard';
import { SITE_TITLE } from '../../lib/site';
import { QrPopover } from './qr-popover';
import { shareUrl, type TShareTarget } from './share-links';

// Each glyph reaches 4.5:1 on its brand colour: white on the darker shade of Reddit's orange-red and of Facebook's
// blue, black on WhatsApp's green and Telegram's blue, which are too light for white.
const socials: { target: TShareTarget | 'qr'; name: string; color: string; glyph: string }[] = [
  { target: 'x', name: 'X', color: 'bg-black', glyph: '𝕏' },
  { target: 'facebook', name: 'Facebook', color: 'bg-[#0866ff]', glyph: 'f' },
  { target: 'reddit', name: 'Reddit', color: 'bg-[#d93a00]', glyph: 'r/' },
  { target: 'whatsapp', name: 'Whatsapp', color: 'bg-[#25d366] text-black', glyph: 'W' },
  { target: 'tumblr', name: 'Tumblr', color: 'bg-[#36465d]', glyph: 't' },
  { target: 'telegram', name: 'Telegram', color: 'bg-[#26a5e4] text-black', glyph: '✈' },
  { target: 'email', name: 'Email', color: 'bg-slate-500', glyph: '@' },
  { target: 'qr', name: 'QR Code', color: 'bg-emerald-600', glyph: '' },
  { target: 'weibo', name: 'Weibo', color: 'bg-[#e6162d]', glyph: '微' },
  { target: 'qzone', name: 'QZone', color: 'bg-[#fece00] text-black', glyph: 'Q' },
];

/**
 * The ten social buttons: each opens its share page for `url` in a new window (Email is a mailto link), and
 * QR Code shows the address's QR popup. The site's share dialog and a room's share dialog both use them.
 */
export function SocialShareButtons({ url, text, title }: { url: string; text: string; title: string }) {
  function open(target: TShareTarget) {
    const page = shareUrl(target, { url, text, title, tags: 'cloud browser,watch together' });
    if (target === 'email') location.href = page;
    else window.open(page, '_blank', 'noopener,noreferrer,width=640,height=560');
  }

  return (
    <div className="grid grid-cols-5 gap-3 max-sm:grid-cols-4">
      {socials.map((social) => {
        const face = (
          <>
            <span
              className={cn(
                'flex size-10 items-center justify-center rounded-full font-bold text-white',
                social.color,
              )}
            >
              {social.target === 'qr' ? (
                <QrCodeIcon className="size-5" />
              ) : social.target === 'email' ? (
                <MailIcon className="size-5" />
              ) : (
                social.glyph
              )}
            </span>
            <span className="text-muted-foreground text-xs">{social.name}</span>
          </>
        );
        const className =
          'flex cursor-pointer flex-col items-center gap-1 rounded-md p-2 transition-colors hover:bg-accent';
        if (social.target === 'qr') {
          return (
            <QrPopover key={social.target} value={url}>
              <button type="button" className={className} data-testid="share-social-qr">
                {face}
              </button>
            </QrPopover>
          );
        }
        const target = social.target;
        return (
          <button
            key={target}
            type="button"
            className={className}
            data-testid={`share-social-${target}`}
            onClick={() => open(target)}
          >
            {face}
          </button>
        );
      })}
    </div>
  );
}

export function ShareDialog() {
  const { i18n, t } = useLingui();
  const [open, setOpen] = useState(false);
  const site = typeof location === 'undefined' ? '' : location.origin;
  const title = i18n._(SITE_TITLE);
  const text = `${t`Browse the web and watch videos together in one shared cloud browser:`} ${title}`;

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <Tooltip>
        <TooltipTrigger asChild>
          <DialogTrigger asChild>
            <Button variant="ghost" size="icon" aria-label={t`Share`} data-testid="share-button">
              <Share2Icon />
            </Button>
          </DialogTrigger>
        </TooltipTrigger>
        <TooltipContent>
          <Trans>Share</Trans>
        </TooltipContent>
      </Tooltip>
      <DialogContent closeLabel={t`Close`} data-testid="share-dialog">
        <DialogHeader>
          <DialogTitle>
            <Trans>share apps</Trans>
          </DialogTitle>
          <DialogDescription>
            <Trans>Invite friends to browse and watch together.</Trans>
          </DialogDescription>
        </DialogHeader>
        <div className="flex gap-2">
          <Input
            readOnly
            value={site}
            aria-label={t`Site address`}
            data-testid="share-url"
            onFocus={(e) => e.target.select()}
          />
          <Button variant="secondary" onClick={() => copyToClipboard(i18n, site)} data-testid="share-copy">
            <CopyIcon />
            <span className="max-sm:sr-only">
              <Trans>Copy</Trans>
            </span>
          </Button>
          <QrPopover value={site}>
            <Button variant="secondary" size="icon" aria-label={t`QR code`} data-testid="share-qr">
              <QrCodeIcon />
            </Button>
          </QrPopover>
        </div>
        <SocialShareButtons url={site} text={text} title={title} />
        <p className="flex items-center justify-center gap-1 text-muted-foreground text-sm">
          <Trans>Thank you for sharing</Trans>
          <HeartIcon className="size-4 fill-red-500 text-red-500" />
        </p>
      </DialogContent>
    </Dialog>
  );
}
