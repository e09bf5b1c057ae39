// What the controller alone may send (input/* and browser/*, isControllerOnly): the gate that refuses everyone
// else, and the queue that runs the controller's input and browser actions one after another, in the order sent.
import type { TClientMessage } from '@rooms/api/room-protocol';
import { errorMessage } from '../error-message';
import { refuse, type THubContext, type THubMember } from '../hub-context';

/** Pointer moves and wheel turns are superseded by the next ones; beyond this backlog they are dropped. */
const MAX_PENDING_INPUT = 64;
/** Beyond this backlog the browser is not keeping up at all, and everything the controller sends is dropped. */
const MAX_PENDING_TASKS = 1024;

export class Driving {
  private tasks: Promise<void> = Promise.resolve();
  private pending = 0;

  constructor(
    private readonly hub: THubContext,
    private readonly isController: (memberId: string) => boolean,
  ) {}

  /**
   * Whether the message goes on: from the controller, with the browser keeping up. Anyone else is told it is not
   * in control, at most once a second (a stray pointer stream would otherwise flood them).
   */
  admit(member: THubMember, message: TClientMessage): boolean {
    if (!this.isController(member.info.id)) {
      const at = this.hub.now();
      if (at - member.lastRefusedAt >= 1000) {
        member.lastRefusedAt = at;
        refuse(member, 'NOT_CONTROLLER', message.type);
      }
      return false;
    }
    return this.pending < MAX_PENDING_TASKS;
  }

  /** Whether a superseded event (a pointer move, a wheel turn) still fits the backlog. */
  roomForSuperseded(): boolean {
    return this.pending < MAX_PENDING_INPUT;
  }

  /**
   * Failed browser actions are reported to whoever asked (the engine's AppError text, e.g. a blocked address,
   * is meant for people); failed input events are only logged: a pointer stream would turn them into a flood.
   */
  enqueue(task: () => Promise<void>, reportTo?: THubMember, about?: string): void {
    this.pending += 1;
    this.tasks = this.tasks
      .then(task)
      .catch((error: unknown) => {
        if (reportTo && about) {
          const message = error instanceof Error && 'appCode' in error ? error.message : undefined;
          reportTo.peer.send(errorMessage('BROWSER_ACTION_FAILED', about, message));
        } else {
          this.hub.warn(error, 'room input failed');
        }
      })
      .finally(() => {
        this.pending -= 1;
      });
  }
}
