// Browsers give a page WebCodecs and AudioWorklet only in a secure context (HTTPS, or localhost): opened over plain
// HTTP at any other address, rooms silently fall back to still JPEG pictures without sound. This notice says so on
// every page, with what fixes it, until the visitor hides it for the tab.
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@rooms/ui/button';
import { TriangleAlertIcon, XIcon } from 'lucide-react';
import { useState } from 'react';

const HIDDEN_KEY = 'rooms.insecure-notice-hidden';

type TMissing = 'insecure' | 'unsupported' | null;

/** What this page lacks for the fast picture and the sound: a secure context, or the browser's support. */
export function missingMediaSupport(): TMissing {
  if (typeof window === 'undefined') return null;
  if (!window.isSecureContext) return 'insecure';
  if (typeof VideoDecoder === 'undefined' || typeof AudioWorkletNode === 'undefined') return 'unsupported';
  return null;
}

function wasHidden(): boolean {
  try {
    return sessionStorage.getItem(HIDDEN_KEY) === '1';
  } catch {
    return false;
  }
}

export function InsecureContextNotice() {
  const { t } = useLingui();
  const [missing] = useState(missingMediaSupport);
  const [hidden, setHidden] = useState(wasHidden);
  if (!missing || hidden) return null;
  const secureAddress = `https://${window.location.host}${window.location.pathname}`;

  function hide() {
    try {
      sessionStorage.setItem(HIDDEN_KEY, '1');
    } catch {
      // Storage refused (private mode): hidden until the page reloads.
    }
    setHidden(true);
  }

  return (
    <div
      role="alert"
      data-testid="insecure-context-notice"
      data-missing={missing}
      className="fixed inset-x-2 bottom-2 z-[1002] mx-auto flex max-w-2xl items-start gap-3 rounded-lg border border-warning/60 bg-background p-4 text-sm shadow-lg"
    >
      <TriangleAlertIcon className="mt-0.5 size-5 shrink-0 text-warning" aria-hidden />
      <div className="min-w-0 flex-1 space-y-1.5 break-words">
        {missing === 'insecure' ? (
          <>
            <p className="font-medium">
              <Trans>This page is not opened over HTTPS, so rooms show still pictures without sound.</Trans>
            </p>
            <p className="text-muted-foreground">
              <Trans>
                Browsers allow the fast H.264 picture and the room's sound only on secure pages. Open this
                site over HTTPS (<span className="font-mono">{secureAddress}</span>) or on localhost. If you
                run this server: set TLS_CERT_FILE and TLS_KEY_FILE, or ACME_DOMAINS for automatic
                certificates, or put a reverse proxy with HTTPS in front of it (see the README's deployment
                section).
              </Trans>
            </p>
          </>
        ) : (
          <>
            <p className="font-medium">
              <Trans>
                This browser cannot play the fast picture and sound, so rooms show still pictures without
                sound.
              </Trans>
            </p>
            <p className="text-muted-foreground">
              <Trans>
                It lacks WebCodecs or AudioWorklet. Use a current version of Chrome, Edge, Firefox or Safari.
              </Trans>
            </p>
          </>
        )}
      </div>
      <Button
        variant="ghost"
        size="icon"
        className="-mt-1.5 -mr-1.5 shrink-0"
        aria-label={t`Hide this notice`}
        onClick={hide}
        data-testid="insecure-context-notice-hide"
      >
        <XIcon />
      </Button>
    </div>
  );
}
