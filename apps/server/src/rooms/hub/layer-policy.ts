// Which layer of the picture a viewer on 'auto' should get, from what their link shows (link-estimate.ts).
// - Down quickly: once data waits on the way longer than a picture may lag, to the best layer that fits in what the
//   link delivers now (at least one step), so the queue drains and the sound behind it gets through.
// - Up slowly, after a probe: once the link has stayed calm for a while, the viewer is sent padding on top of its
//   layer for a second, at the rate of the best layer. The viewer then goes to the best layer that fits in what
//   the link delivered; if none above its own does, the next probe waits twice as long, up to a limit. A
//   keyframe's burst can also show that the link carries a better layer, which saves the probe.
// - Hysteresis: a step up that brings the queue back within a few seconds is undone and counts as a failed probe,
//   so a link that cannot carry a layer does not pump between two.
// The decision is what the viewer should get; the switch itself waits for the target layer's keyframe.
import type { TLinkSignals } from './link-estimate';

export type TLayerReason = 'congested' | 'probe' | 'held';

export type TLayerDecision =
  | { kind: 'switch'; index: number; reason: TLayerReason }
  /** Send padding so that the viewer receives `kbps` in all until `untilMs`. */
  | { kind: 'probe'; kbps: number; untilMs: number }
  /** The probe under way made data wait: stop it (and switch, when it showed a better layer fits). */
  | { kind: 'end-probe'; next?: TLayerDecision };

/** Queueing beyond this is congestion: a picture this late is felt, and sound queues behind it. */
export const CONGESTED_DELAY_MS = 250;
/**
 * Queueing must last this long to count: a viewer's browser that stalls for a moment (a busy machine, a tab in
 * the background) acknowledges late, then all at once, and a smaller layer would not help it.
 */
const CONGESTION_PERSISTS_MS = 400;
/** A link this calm may be given more. */
const CALM_DELAY_MS = 80;
/** A layer fits when it takes at most this share of what the link delivers (room for sound and framing). */
const FIT_SHARE = 0.85;
/** A step down waits this long after the last switch took effect: the queue of the layer above drains first. */
const DOWN_SETTLE_MS = 1000;
const BASE_HOLD_MS = 2000;
const MAX_HOLD_MS = 6000;
/** A step up is judged over this long: congestion within it undoes the step. */
const STEP_JUDGE_MS = 4000;
const PROBE_MS = 1000;
/**
 * A probe's padding may make data wait this long (it is dropped then): the rate it reached is what it shows. Well
 * below the time a picture may lag before the viewer skips to a keyframe, so a probe never freezes the picture.
 */
const PROBE_MAX_DELAY_MS = 150;
/** Acks of the probe's last bytes are waited for this long before it is judged. */
const PROBE_SETTLE_MS = 300;
/** A probe sends a little more than the layer above needs, so that delivering it proves the layer fits. */
const PROBE_MARGIN = 1.2;

export class LayerPolicy {
  private current: number;
  private lastSwitchAt: number;
  private calmSince: number | undefined;
  private congestedSince: number | undefined;
  private holdMs = BASE_HOLD_MS;
  /** When the last step up took effect, while it is still being judged. */
  private steppedUpAt: number | undefined;
  private probeUntil: number | undefined;

  /** `kbps`: each layer's picture and sound together, best first. */
  constructor(
    private readonly kbps: readonly number[],
    start: number,
    now: number,
  ) {
    this.current = start;
    this.lastSwitchAt = now;
  }

  get layer(): number {
    return this.current;
  }

  /** The viewer now receives layer `index` (a decided switch took effect, or the viewer chose it). */
  switched(index: number, now: number): void {
    this.steppedUpAt = index < this.current ? now : undefined;
    this.current = index;
    this.lastSwitchAt = now;
    this.calmSince = undefined;
    this.probeUntil = undefined;
  }

  decide(signals: TLinkSignals, now: number): TLayerDecision | undefined {
    const lowest = this.kbps.length - 1;
    if (this.steppedUpAt !== undefined && now - this.steppedUpAt >= STEP_JUDGE_MS) {
      // The step up held: the next probe need not wait longer than usual.
      this.steppedUpAt = undefined;
      this.holdMs = BASE_HOLD_MS;
    }
    if (this.probeUntil !== undefined) return this.judgeProbe(signals, now);
    if (signals.queueDelayMs > CONGESTED_DELAY_MS) {
      this.calmSince = undefined;
      this.congestedSince ??= now;
      if (this.current >= lowest || now - this.lastSwitchAt < DOWN_SETTLE_MS) return undefined;
      if (now - this.congestedSince < CONGESTION_PERSISTS_MS) return undefined;
      const stepUpFailed = this.steppedUpAt !== undefined;
      if (stepUpFailed) this.probeFailed();
      this.steppedUpAt = undefined;
      return {
        kind: 'switch',
        index: this.fitting(signals.deliveryKbps),
        reason: stepUpFailed ? 'held' : 'congested',
      };
    }
    this.congestedSince = undefined;
    if (this.current === 0) return undefined;
    if (signals.queueDelayMs >= CALM_DELAY_MS) {
      this.calmSince = undefined;
      return undefined;
    }
    this.calmSince ??= now;
    const calm = Math.min(now - this.calmSince, now - this.lastSwitchAt);
    if (calm < this.holdMs) return undefined;
    const better = this.bestFit(signals.capacityKbps);
    if (better !== undefined) return this.stepUp(better);
    // Padding at the rate of the best layer: the link shows how much of it it carries, and the viewer goes to
    // the best layer that fits in that.
    this.probeUntil = now + PROBE_MS;
    return { kind: 'probe', kbps: (this.kbps[0]! / FIT_SHARE) * PROBE_MARGIN, untilMs: this.probeUntil };
  }

  /** A probe under way: stopped when its padding makes data wait too long; judged once its acks are in. */
  private judgeProbe(signals: TLinkSignals, now: number): TLayerDecision | undefined {
    const overflowing = signals.queueDelayMs > PROBE_MAX_DELAY_MS;
    if (!overflowing && now < this.probeUntil! + PROBE_SETTLE_MS) return undefined;
    const better = this.bestFit(signals.capacityKbps);
    if (better !== undefined) {
      this.probeUntil = undefined;
      const decision = this.stepUp(better);
      return overflowing ? { kind: 'end-probe', next: decision } : decision;
    }
    this.probeFailed();
    return overflowing ? { kind: 'end-probe' } : undefined;
  }

  private stepUp(index: number): TLayerDecision {
    // Seen to fit: the step after this one need not wait out a longer hold earned by earlier failures.
    this.holdMs = BASE_HOLD_MS;
    this.probeUntil = undefined;
    return { kind: 'switch', index, reason: 'probe' };
  }

  /** The best layer above the current one that the link has been seen to carry, if any. */
  private bestFit(capacityKbps: number): number | undefined {
    for (let index = 0; index < this.current; index++) {
      if (this.kbps[index]! <= capacityKbps * FIT_SHARE) return index;
    }
    return undefined;
  }

  private probeFailed(): void {
    this.probeUntil = undefined;
    this.calmSince = undefined;
    this.holdMs = Math.min(MAX_HOLD_MS, this.holdMs * 2);
  }

  /** The best layer below the current one that fits what the link delivers; the lowest when none does. */
  private fitting(deliveryKbps: number): number {
    const lowest = this.kbps.length - 1;
    for (let index = this.current + 1; index < lowest; index++) {
      if (this.kbps[index]! <= deliveryKbps * FIT_SHARE) return index;
    }
    return lowest;
  }
}
