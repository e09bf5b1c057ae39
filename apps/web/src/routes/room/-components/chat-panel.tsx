// The room's text chat: the history every joiner receives, then live messages. A message never widens the panel:
// a long word or a pasted URL breaks at the panel's edge and only there (overflow-wrap: anywhere), so a link still
// reads left to right, line after line; the list's one grid column is minmax(0, 1fr), never a word's width.
// New messages are read out as they come (a polite log), without taking anyone's focus.
import { Trans, useLingui } from '@lingui/react/macro';
import { CHAT_MAX_LENGTH, type TChatEntry, type TClientMessageInput } from '@rooms/api/room-protocol';
import { Button } from '@rooms/ui/button';
import { Input } from '@rooms/ui/input';
import { showToast } from '@rooms/ui/toaster';
import { SendIcon } from 'lucide-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';

const time = (at: number) =>
  new Date(at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', hour12: false });

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
    if (send({ type: 'chat/send', text: message.slice(0, CHAT_MAX_LENGTH) })) setText('');
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
                <span>{message.text}</span>
              </li>
            ))
          )}
        </ol>
      </div>
      <form className="flex gap-2 border-t p-2" onSubmit={submit}>
        <Input
          value={text}
          maxLength={CHAT_MAX_LENGTH}
          onChange={(event) => setText(event.target.value)}
          placeholder={connected ? t`Write a message` : t`Chat is back when the room is`}
          aria-label={t`Message`}
          disabled={!connected}
          data-testid="chat-input"
        />
        <Button type="submit" size="icon" aria-label={t`Send`} disabled={!connected} data-testid="chat-send">
          <SendIcon />
        </Button>
      </form>
    </section>
  );
}
