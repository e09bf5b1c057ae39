// The input domain of a room's hub: the controller's pointer, wheel, keys, text and composition, applied to the
// room's browser in order (./driving.ts); pointer moves and wheel turns are dropped when the browser falls behind.
import type { RoomSession } from '../../room-session';
import type { TDomainMessage } from '../hub-context';
import type { Driving } from './driving';

export class InputHandler {
  constructor(
    private readonly session: RoomSession,
    private readonly driving: Driving,
  ) {}

  handle(message: TDomainMessage<'input'>): void {
    const superseded =
      message.type === 'input/wheel' || (message.type === 'input/pointer' && message.action === 'move');
    if (superseded && !this.driving.roomForSuperseded()) return;
    this.driving.enqueue(() => this.session.applyInput(message));
  }
}
