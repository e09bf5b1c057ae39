// Find in the room's page (Ctrl+F or F3 while driving): Chromium's own find bar is browser UI that the room's
// keys never reach, so the room page asks the server to find the text in the active tab (browser/find), which
// selects and scrolls to the match for everyone watching.
import { useLingui } from '@lingui/react/macro';
import { FIND_MAX_LENGTH, type TClientMessageInput } from '@rooms/api/room-protocol';
import { Button } from '@rooms/ui/button';
import { Input } from '@rooms/ui/input';
import { ChevronDownIcon, ChevronUpIcon, XIcon } from 'lucide-react';
import { type KeyboardEvent, useState } from 'react';

export function FindBar({
  found,
  send,
  onClose,
}: {
  /** The server's answer to the last find. */
  found: { text: string; found: boolean } | null;
  send: (message: TClientMessageInput) => boolean;
  onClose: () => void;
}) {
  const { t } = useLingui();
  const [text, setText] = useState('');
  const [asked, setAsked] = useState<string | null>(null);

  const find = (backwards: boolean) => {
    const query = text.trim();
    if (!query) return;
    setAsked(query);
    send({ type: 'browser/find', text: query, backwards });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      find(event.shiftKey);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      onClose();
    }
  };

  const answer = asked !== null && found?.text === asked ? found.found : null;
  const missing = answer === false;
  return (
    <search
      className="absolute top-2 right-2 z-20 flex items-center gap-1 rounded-md border bg-popover p-1 shadow-md"
      data-testid="room-find-bar"
      data-found={answer ?? undefined}
    >
      <Input
        autoFocus
        value={text}
        maxLength={FIND_MAX_LENGTH}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        placeholder={t`Find in page`}
        aria-label={t`Find in page`}
        aria-invalid={missing ? true : undefined}
        className="h-8 w-44 sm:w-56"
        data-testid="room-find-input"
      />
      {missing ? (
        <span className="px-1 text-destructive text-xs" role="status" data-testid="room-find-missing">
          {t`Not found`}
        </span>
      ) : null}
      <Button
        variant="ghost"
        size="icon"
        className="size-8"
        onClick={() => find(true)}
        aria-label={t`Previous match`}
      >
        <ChevronUpIcon />
      </Button>
      <Button
        variant="ghost"
        size="icon"
        className="size-8"
        onClick={() => find(false)}
        aria-label={t`Next match`}
      >
        <ChevronDownIcon />
      </Button>
      <Button variant="ghost" size="icon" className="size-8" onClick={onClose} aria-label={t`Close`}>
        <XIcon />
      </Button>
    </search>
  );
}
