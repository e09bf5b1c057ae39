// The control domain of a room's hub: who drives the browser. control/request, cancel, grant, release and take
// go through the queue's rules (./control-queue.ts); every change is shown to everyone, a refusal to the sender.
import type { TControlChange } from '@rooms/api/room-protocol';
import { refuse, type TDomainMessage, type THubContext, type THubMember } from '../hub-context';
import { ControlQueue, type TControlOutcome } from './control-queue';

export class ControlHandler {
  readonly queue: ControlQueue;

  constructor(private readonly hub: THubContext) {
    this.queue = new ControlQueue({
      has: (id) => hub.members.has(id),
      isOwner: (id) => hub.members.get(id)?.info.isOwner ?? false,
      ids: () => hub.members.keys(),
    });
  }

  handle(member: THubMember, message: TDomainMessage<'control'>): void {
    const id = member.info.id;
    switch (message.type) {
      case 'control/request':
        this.apply(member, 'request', this.queue.request(id));
        return;
      case 'control/cancel':
        this.apply(member, 'cancel', this.queue.cancel(id));
        return;
      case 'control/grant':
        this.apply(member, 'grant', this.queue.grant(id, message.memberId));
        return;
      case 'control/release':
        this.apply(member, 'release', this.queue.release(id));
        return;
      case 'control/take':
        this.apply(member, 'take', this.queue.take(id));
        return;
    }
  }

  isController(memberId: string): boolean {
    return this.queue.isController(memberId);
  }

  /** Tells everyone the control state after this change. */
  announce(change: TControlChange): void {
    this.hub.broadcast({ type: 'control/state', ...this.queue.state(), change });
  }

  private apply(member: THubMember, action: TControlChange['action'], outcome: TControlOutcome): void {
    if (!outcome.ok) refuse(member, outcome.code, `control/${action}`);
    else if (outcome.changed) this.announce({ action, byId: member.info.id });
  }
}
