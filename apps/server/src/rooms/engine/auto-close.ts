// Stops a room nobody watches: once the participant count is zero (or nobody ever joined since the start) for
// the room's auto-close time, the timer fires. Any participant cancels it; the last one leaving starts it anew.
export class AutoCloseTimer {
  private timer: NodeJS.Timeout | undefined;
  private participants = 0;

  constructor(
    private readonly delayMs: number,
    private readonly onExpire: () => void,
  ) {}

  /** Starts counting from now with this many participants already connected. */
  start(participants: number): void {
    this.participants = -1;
    this.update(participants);
  }

  update(participants: number): void {
    const wasEmpty = this.participants === 0;
    this.participants = participants;
    if (participants > 0) {
      this.cancel();
    } else if (!wasEmpty) {
      this.cancel();
      this.timer = setTimeout(this.onExpire, this.delayMs);
      // A pending auto-close must not keep a finished process (a test, a CLI) alive.
      this.timer.unref();
    }
  }

  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
