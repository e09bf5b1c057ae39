import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AutoCloseTimer } from './auto-close';

describe('AutoCloseTimer', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('fires after the delay when nobody ever joined', () => {
    const expire = vi.fn();
    new AutoCloseTimer(1000, expire).start(0);
    vi.advanceTimersByTime(999);
    expect(expire).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(expire).toHaveBeenCalledOnce();
  });

  it('is cancelled by a participant and restarted in full when the last one leaves', () => {
    const expire = vi.fn();
    const timer = new AutoCloseTimer(1000, expire);
    timer.start(0);
    vi.advanceTimersByTime(800);
    timer.update(2);
    vi.advanceTimersByTime(5000);
    timer.update(1);
    timer.update(0);
    vi.advanceTimersByTime(800);
    // A repeated "still zero" report does not push the deadline back.
    timer.update(0);
    vi.advanceTimersByTime(200);
    expect(expire).toHaveBeenCalledOnce();
  });

  it('never fires once cancelled', () => {
    const expire = vi.fn();
    const timer = new AutoCloseTimer(1000, expire);
    timer.start(0);
    timer.cancel();
    vi.advanceTimersByTime(5000);
    expect(expire).not.toHaveBeenCalled();
  });
});
