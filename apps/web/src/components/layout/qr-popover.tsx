// The site's QR code in a small popup anchored to the button that asked for it (100×100, error
// correction H, centre image 0.4). It hides on outside click, Escape, scroll and resize.
import { useLingui } from '@lingui/react/macro';
import { Popover, PopoverContent, PopoverTrigger } from '@rooms/ui/popover';
import QRCode from 'qrcode';
import { type ReactNode, useEffect, useState } from 'react';

export const QR_POPUP_SIZE = 100;
/** The centre image as a fraction of the code. */
export const QR_IMAGE_SIZE = 0.4;

/** The QR code of a room's share link: 300×300, error correction Q. */
export const QR_DEFAULT_SIZE = 300;

export function useQrDataUrl(text: string, size = QR_POPUP_SIZE, level: 'H' | 'Q' = 'H'): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let alive = true;
    QRCode.toDataURL(text, { width: size, margin: 1, errorCorrectionLevel: level }).then(
      (data) => alive && setUrl(data),
      () => alive && setUrl(null),
    );
    return () => {
      alive = false;
    };
  }, [text, size, level]);
  return url;
}

export function QrPopover({ value, children }: { value: string; children: ReactNode }) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const dataUrl = useQrDataUrl(value);

  useEffect(() => {
    if (!open) return;
    const hide = () => setOpen(false);
    window.addEventListener('scroll', hide, true);
    window.addEventListener('resize', hide);
    return () => {
      window.removeEventListener('scroll', hide, true);
      window.removeEventListener('resize', hide);
    };
  }, [open]);

  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>{children}</PopoverTrigger>
      <PopoverContent className="w-auto p-2" data-testid="qr-popup" aria-label={t`QR code`}>
        <div
          className="relative bg-white p-1"
          style={{ width: QR_POPUP_SIZE + 8, height: QR_POPUP_SIZE + 8 }}
        >
          {dataUrl ? (
            <img
              src={dataUrl}
              alt={t`QR code`}
              width={QR_POPUP_SIZE}
              height={QR_POPUP_SIZE}
              data-testid="qr-image"
            />
          ) : null}
          <img
            src="/favicon.svg"
            alt=""
            className="absolute top-1/2 left-1/2 -translate-x-1/2 -translate-y-1/2 rounded-md border-2 border-white"
            style={{ width: QR_POPUP_SIZE * QR_IMAGE_SIZE, height: QR_POPUP_SIZE * QR_IMAGE_SIZE }}
          />
        </div>
      </PopoverContent>
    </Popover>
  );
}
