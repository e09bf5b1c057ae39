// The browser domain of a room's hub: the controller's navigation, tabs and find in the page, run in order with
// its input (../input/driving.ts); a failed action is reported to the controller alone.
import type { RoomSession } from '../../room-session';
import type { TDomainMessage, THubMember } from '../hub-context';
import type { Driving } from '../input/driving';

export class BrowserHandler {
  constructor(
    private readonly session: RoomSession,
    private readonly driving: Driving,
  ) {}

  handle(member: THubMember, message: TDomainMessage<'browser'>): void {
    const session = this.session;
    const run = (action: () => Promise<void>) => this.driving.enqueue(action, member, message.type);
    switch (message.type) {
      case 'browser/navigate':
        run(() => session.navigate(message.url));
        return;
      case 'browser/back':
        run(() => session.back());
        return;
      case 'browser/forward':
        run(() => session.forward());
        return;
      case 'browser/reload':
        run(() => session.reload());
        return;
      case 'browser/tab-open':
        run(() => session.openTab(message.url));
        return;
      case 'browser/tab-activate':
        run(() => session.activateTab(message.tabId));
        return;
      case 'browser/tab-close':
        run(() => session.closeTab(message.tabId));
        return;
      case 'browser/find':
        run(async () => {
          const found = await session.find(message.text, message.backwards);
          member.peer.send({ type: 'browser/found', text: message.text, found });
        });
        return;
    }
  }
}
