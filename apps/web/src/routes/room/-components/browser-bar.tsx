// Our own browser controls: back, forward, reload, the address bar and the tabs. Only the controller's count;
// everyone else sees them disabled.
import { Trans, useLingui } from '@lingui/react/macro';
import type { TBrowserTabInfo, TClientMessageInput } from '@rooms/api/room-protocol';
import { URL_MAX_LENGTH } from '@rooms/api/room-protocol';
import { Button } from '@rooms/ui/button';
import { Input } from '@rooms/ui/input';
import { cn } from '@rooms/ui/lib/utils';
import { ArrowLeftIcon, ArrowRightIcon, PlusIcon, RotateCwIcon, XIcon } from 'lucide-react';
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';

export function BrowserBar({
  tabs,
  controlling,
  isOwner,
  send,
}: {
  tabs: TBrowserTabInfo[];
  controlling: boolean;
  /** The owner takes control instead of asking for it, and the hint says so. */
  isOwner: boolean;
  send: (message: TClientMessageInput) => boolean;
}) {
  const { t } = useLingui();
  const active = tabs.find((tab) => tab.active);
  const [address, setAddress] = useState(active?.url ?? '');
  const [editing, setEditing] = useState(false);
  useEffect(() => {
    if (!editing) setAddress(active?.url ?? '');
  }, [active?.url, editing]);

  const closable = controlling && tabs.length > 1;
  const newTabButton = useRef<HTMLButtonElement>(null);

  /** Closes a tab; when `from` (its tab in the list) has the focus, the focus goes to a neighbour that stays. */
  function close(tabId: string, from: HTMLElement) {
    if (from === document.activeElement) {
      const neighbour = from.nextElementSibling ?? from.previousElementSibling;
      if (neighbour instanceof HTMLElement) neighbour.focus();
    }
    send({ type: 'browser/tab-close', tabId });
  }

  function go(event: FormEvent) {
    event.preventDefault();
    const url = address.trim();
    if (!url) return;
    send({ type: 'browser/navigate', url });
    setEditing(false);
    (document.activeElement as HTMLElement | null)?.blur();
  }

  return (
    <div className="grid gap-1 border-b bg-card px-2 py-1.5" data-testid="browser-bar">
      <div className="flex items-center gap-1">
        <NavButton
          label={t`Back`}
          icon={<ArrowLeftIcon />}
          disabled={!controlling}
          onClick={() => send({ type: 'browser/back' })}
          testId="browser-back"
        />
        <NavButton
          label={t`Forward`}
          icon={<ArrowRightIcon />}
          disabled={!controlling}
          onClick={() => send({ type: 'browser/forward' })}
          testId="browser-forward"
        />
        <NavButton
          label={t`Reload`}
          icon={<RotateCwIcon />}
          disabled={!controlling}
          onClick={() => send({ type: 'browser/reload' })}
          testId="browser-reload"
        />
        <form className="min-w-0 flex-1" onSubmit={go}>
          <Input
            className="h-8"
            value={address}
            maxLength={URL_MAX_LENGTH}
            disabled={!controlling}
            inputMode="url"
            spellCheck={false}
            aria-label={t`Address`}
            placeholder={t`Enter an address`}
            onFocus={(event) => {
              setEditing(true);
              event.target.select();
            }}
            onBlur={() => setEditing(false)}
            onChange={(event) => setAddress(event.target.value)}
            data-testid="browser-address"
          />
        </form>
      </div>
      <div className="flex items-center gap-1">
        {/* Only tabs in the tab list; closing and opening sit beside it. A tab's own × is for the pointer (it is
            part of the tab, which a screen reader reads as one thing): from the keyboard, Delete closes the
            focused tab and Close tab the one shown. */}
        <div className="flex min-w-0 items-center gap-1 overflow-x-auto" role="tablist" aria-label={t`Tabs`}>
          {tabs.map((tab) => (
            <button
              key={tab.id}
              type="button"
              role="tab"
              aria-selected={tab.active}
              aria-keyshortcuts={closable ? 'Delete' : undefined}
              disabled={!controlling}
              className={cn(
                'flex h-7 max-w-48 shrink-0 cursor-pointer items-center rounded-md border text-xs disabled:cursor-default',
                tab.active ? 'bg-accent text-accent-foreground' : 'text-muted-foreground',
              )}
              title={tab.url}
              onClick={(event) => {
                if ((event.target as Element).closest('[data-tab-close]')) close(tab.id, event.currentTarget);
                else send({ type: 'browser/tab-activate', tabId: tab.id });
              }}
              onKeyDown={(event) => {
                if (!closable || event.key !== 'Delete') return;
                event.preventDefault();
                close(tab.id, event.currentTarget);
              }}
              data-testid="browser-tab"
            >
              <span className="min-w-0 truncate px-2">{tab.title || tab.url || t`New tab`}</span>
              {closable ? (
                <span className="mr-1 rounded p-0.5 hover:bg-background/50" aria-hidden data-tab-close>
                  <XIcon className="size-3" />
                </span>
              ) : null}
            </button>
          ))}
        </div>
        {closable && active ? (
          <Button
            variant="ghost"
            size="icon"
            className="size-7"
            onClick={() => {
              // The last tab cannot be closed, so this button goes with the second last: the focus stays near.
              if (tabs.length <= 2) newTabButton.current?.focus();
              send({ type: 'browser/tab-close', tabId: active.id });
            }}
            aria-label={t`Close tab`}
            data-testid="browser-tab-close"
          >
            <XIcon />
          </Button>
        ) : null}
        <Button
          ref={newTabButton}
          variant="ghost"
          size="icon"
          className="size-7 shrink-0"
          disabled={!controlling}
          onClick={() => send({ type: 'browser/tab-open' })}
          aria-label={t`New tab`}
          data-testid="browser-tab-open"
        >
          <PlusIcon />
        </Button>
        {!controlling ? (
          <span className="ml-auto shrink-0 pl-2 text-muted-foreground text-xs">
            {isOwner ? (
              <Trans>Take control to drive the browser</Trans>
            ) : (
              <Trans>Request control to drive the browser</Trans>
            )}
          </span>
        ) : null}
      </div>
    </div>
  );
}

function NavButton(props: {
  label: string;
  icon: ReactNode;
  disabled: boolean;
  onClick: () => void;
  testId: string;
}) {
  return (
    <Button
      variant="ghost"
      size="icon"
      className="size-8"
      disabled={props.disabled}
      onClick={props.onClick}
      aria-label={props.label}
      data-testid={props.testId}
    >
      {props.icon}
    </Button>
  );
}
