// The chat domain of a room's hub: chat/send from any member, rate-limited per person, to everyone; the history a
// joiner is shown, and a banned person's messages taken away (./room-chat.ts keeps and stores them).
import type { TChatEntry } from '@rooms/api/room-protocol';
import type { TBanMarks } from '../../../ws/relay-ports';
import { refuse, type TDomainMessage, type THubContext, type THubMember } from '../hub-context';
import { RoomChat, type TRoomChatOptions } from './room-chat';

export class ChatHandler {
  private readonly chat: RoomChat;

  constructor(
    private readonly hub: THubContext,
    options: TRoomChatOptions = {},
  ) {
    this.chat = new RoomChat(options, (err, what) => hub.warn(err, what));
  }

  handle(member: THubMember, message: TDomainMessage<'chat'>): void {
    const { info, identity } = member;
    const sent = this.chat.send(
      { memberId: info.id, nickname: info.nickname, identity },
      message.text,
      this.hub.now(),
    );
    if (sent) this.hub.broadcast({ type: 'chat/message', message: sent });
    else refuse(member, 'RATE_LIMITED', 'chat/send');
  }

  history(): TChatEntry[] {
    return this.chat.history();
  }

  /** Takes away what the people with these marks wrote; everyone is shown the history without it. */
  retract(marks: readonly TBanMarks[]): void {
    if (this.chat.retract(marks)) this.hub.broadcast({ type: 'chat/history', messages: this.chat.history() });
  }
}
