// The room's text chat: the history every joiner receives, then live messages. A message never widens the panel:
// a long word or a pasted URL breaks at the panel's edge and only there (overflow-wrap: anywhere), so a link still
// reads left to right, line after line; the list's one grid column is minmax(0, 1fr), never a word's width.
// New messages are read out as they come (a polite log), without taking anyone's focus. Web addresses are links
// that open in a new tab of the reader's own browser, never the room's; the composer counts toward the length
// limit and refuses a longer message rather than cutting it.
import { Trans, useLingui } from '@lingui/react/macro';
import {
  CHAT_MAX_LENGTH,
  chatTextLength,
  type TChatEntry,
  type TClientMessageInput,
} from '@rooms/api/room-protocol';
import { Button } from '@rooms/ui/button';
import { Input } from '@rooms/ui/input';
import { showToast } from '@rooms/ui/toaster';
import { SendIcon } from 'lucide-react';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { chatSegments } from '../../../lib/room/chat-links';

const time = (at: number) =>
  new Date(at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', hour12: false });

/** The counter shows from this share of the limit on, before anyone runs into it. */
const COUNT_FROM = 0.8;

/**
 * A message's text with its web addresses as links: the address in full as the text (so what is clicked is what
 * is read), the exact target on hover, and a new tab that gets neither this page nor where the link came from.
 */
function MessageText({ text }: { text: string }) {
  return (
    <span>
      {chatSegments(text).map((segment, index) =>
        segment.href ? (
          <a
            // biome-ignore lint/suspicious/noArrayIndexKey: a message's segments never move.
            key={index}
            href={segment.href}
            title={segment.href}
            target="_blank"
            rel="noopener noreferrer"
            className="text-primary underline underline-offset-2"
            data-testid="chat-link"
          >
            {segment.text}
          </a>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: a message's segments never move.
          <span key={index}>{segment.text}</span>
        ),
      )}
    </span>
  );
}

export function ChatPanel({
  messages,
  you,
  send,
  connected,
}: {
  messages: TChatEntry[];
  you: string | null;
  send: (message: TClientMessageInput) => boolean;
  /** In the room now: while it is away (stopped, restarting, reconnecting) nothing can be sent and the box says so. */
  connected: boolean;
}) {
  const { t } = useLingui();
  const [text, setText] = useState('');
  const list = useRef<HTMLOListElement>(null);
  const countId = useId();
  // Counted as the server counts (cleaned and trimmed), so the box and the room agree on what is too long.
  const length = chatTextLength(text);
  const over = length - CHAT_MAX_LENGTH;

  useEffect(() => {
    const element = list.current;
    if (element && messages.length) element.scrollTop = element.scrollHeight;
  }, [messages.length]);

  function submit(event: FormEvent) {
    event.preventDefault();
    const message = text.trim();
    if (!message) {
      return showToast({ severity: 'warn', summary: t`Warning`, detail: t`Please enter a message` });
    }
    // Kept in the box to shorten: part of a message can say something else than the whole.
    if (over > 0) {
      return showToast({
        severity: 'warn',
        summary: t`Warning`,
        detail: t`A message has at most ${CHAT_MAX_LENGTH} characters; this one has ${length}. Please shorten it.`,
      });
    }
    if (send({ type: 'chat/send', text: message })) setText('');
    // Kept in the box, to send once the room is back.
    else
      showToast({
        severity: 'warn',
        summary: t`Warning`,
        detail: t`Not connected to the room; try again when it is back`,
      });
  }

  return (
    <section className="flex min-h-48 min-w-0 flex-1 flex-col" aria-label={t`Chat`} data-testid="chat-panel">
      <h2 className="px-3 pt-3 font-medium text-sm">
        <Trans>Chat</Trans>
      </h2>
      {/* A log around the list, not on it: a list keeps its items' count and place for a screen reader. */}
      <div
        role="log"
        aria-live="polite"
        aria-label={t`Chat messages`}
        className="flex min-h-0 min-w-0 flex-1 flex-col"
      >
        <ol
          ref={list}
          className="grid min-w-0 flex-1 grid-cols-[minmax(0,1fr)] content-start gap-2 overflow-y-auto p-3"
          data-testid="chat-messages"
        >
          {messages.length === 0 ? (
            <li className="text-muted-foreground text-xs">
              <Trans>No messages yet. Say hello!</Trans>
            </li>
          ) : (
            messages.map((message) => (
              <li key={message.id} className="wrap-anywhere min-w-0 text-sm" data-testid="chat-message">
                <span className="text-muted-foreground text-xs">{time(message.at)} </span>
                <span className={message.memberId === you ? 'font-medium text-primary' : 'font-medium'}>
                  {message.nickname}
                </span>
                <span className="text-muted-foreground">: </span>
                <MessageText text={message.text} />
              </li>
            ))
          )}
        </ol>
      </div>
      <form className="flex flex-col gap-1 border-t p-2" onSubmit={submit}>
        <div className="flex gap-2">
          <Input
            value={text}
            onChange={(event) => setText(event.target.value)}
            placeholder={connected ? t`Write a message` : t`Chat is back when the room is`}
            aria-label={t`Message`}
            aria-invalid={over > 0}
            aria-describedby={length >= CHAT_MAX_LENGTH * COUNT_FROM ? countId : undefined}
            disabled={!connected}
            data-testid="chat-input"
          />
          <Button
            type="submit"
            size="icon"
            aria-label={t`Send`}
            disabled={!connected}
            data-testid="chat-send"
          >
            <SendIcon />
          </Button>
        </div>
        {length >= CHAT_MAX_LENGTH * COUNT_FROM ? (
          <p
            id={countId}
            className={over > 0 ? 'text-destructive text-xs' : 'text-muted-foreground text-xs'}
            aria-live="polite"
            data-testid="chat-count"
            data-over={over > 0}
          >
            {over > 0
              ? t`${length} / ${CHAT_MAX_LENGTH} characters: ${over} too many to send`
              : t`${length} / ${CHAT_MAX_LENGTH} characters`}
          </p>
        ) : null}
      </form>
    </section>
  );
}
