// How one viewer's link carries what the server sends it, learned from the viewer's acknowledgements
// (stream/ack: the bytes its socket has received so far). The server knows when each byte left; an ack says
// when it arrived, so:
// - the ack delay of the newest acknowledged send is a round trip plus whatever waited on the way; its least value
//   over the last seconds is the link's own round trip, and the excess is queueing delay, which rises the moment
//   the link carries less than it is given (a viewer that stops acknowledging shows it too: the oldest byte still
//   unacknowledged keeps ageing);
// - the bytes acknowledged per second of the viewer's own clock are what the link delivered: while a queue stands,
//   the link's capacity; otherwise a lower bound of it (keyframes, sent in one piece, reach above the average).
// Plain arithmetic on times handed in, so recorded traces replay in unit tests.

/** How long a round-trip sample counts towards the link's own round trip: routes change, clocks do not drift. */
const RTT_WINDOW_MS = 10_000;
/** Delivery measured over this much recent time. */
const DELIVERY_WINDOW_MS = 1000;
/** Rate samples kept for the capacity's lower bound. */
const CAPACITY_WINDOW_MS = 5000;
/**
 * A rate is measured over at least this much of the viewer's time. Media arrives in whole messages (a keyframe is
 * one), so an ack can count bytes that were mostly on their way before the span began; over a long span that
 * error is small.
 */
const RATE_SPAN_MS = 800;
/**
 * A client acknowledges about every 100 ms, so bytes up to that old are unacknowledged on a healthy link: only
 * age beyond it counts as queueing.
 */
const ACK_INTERVAL_MS = 120;
/** An ack's delay describes the link for this long. */
const FRESH_ACK_MS = 500;

interface TSend {
  /** Offset of the send's last byte + 1, counted from the socket's start. */
  end: number;
  at: number;
}

interface TSample {
  at: number;
  value: number;
}

export interface TLinkSignals {
  /** Time data waits on the way beyond the link's own round trip, ms. */
  queueDelayMs: number;
  /** What the link delivered over the last second, kbit/s (0 before any ack). */
  deliveryKbps: number;
  /** The most the link has been seen to carry lately, kbit/s: a lower bound of its capacity. */
  capacityKbps: number;
  /** Bytes sent and not yet acknowledged. */
  inFlight: number;
  /** The link's own round trip, ms (0 until an ack was measured). */
  baseRttMs: number;
}

export class LinkEstimate {
  private sentBytes = 0;
  private ackedBytes = 0;
  private readonly unacked: TSend[] = [];
  private readonly rtts: TSample[] = [];
  private readonly deliveries: { at: number; bytes: number }[] = [];
  private readonly rates: TSample[] = [];
  /** Acks of the last rate span and one before it, on the viewer's clock. */
  private readonly ackHistory: { bytes: number; clientAt: number }[] = [];
  private lastDelayMs = 0;
  private lastAckAt = Number.NEGATIVE_INFINITY;
  private acks = 0;

  /** Whether the viewer acknowledges at all (older clients and scripts do not). */
  get acknowledging(): boolean {
    return this.acks > 0;
  }

  get inFlight(): number {
    return this.sentBytes - this.ackedBytes;
  }

  sent(bytes: number, now: number): void {
    this.sentBytes += bytes;
    this.unacked.push({ end: this.sentBytes, at: now });
  }

  /**
   * The viewer has received `bytes` in all, the last of them at its own time `clientAt` (ms), and held the ack
   * `heldMs` before sending it; the ack reached us at `now`.
   */
  acked(bytes: number, now: number, clientAt = now, heldMs = 0): void {
    // An ack of more than was sent is a confused client: it cannot have received it.
    const total = Math.min(bytes, this.sentBytes);
    if (total < this.ackedBytes) return;
    this.acks += 1;
    let newest: TSend | undefined;
    while (this.unacked.length > 0 && this.unacked[0]!.end <= total) newest = this.unacked.shift();
    this.lastAckAt = now;
    if (newest) {
      this.lastDelayMs = Math.max(0, now - newest.at - heldMs);
      this.rtts.push({ at: now, value: this.lastDelayMs });
      trim(this.rtts, now - RTT_WINDOW_MS);
    }
    const delivered = total - this.ackedBytes;
    this.ackedBytes = total;
    this.deliveries.push({ at: now, bytes: delivered });
    while (this.deliveries.length > 0 && this.deliveries[0]!.at < now - DELIVERY_WINDOW_MS)
      this.deliveries.shift();
    this.ackHistory.push({ bytes: total, clientAt });
    // Keep one ack at least a span old: the start of the next rate sample.
    while (this.ackHistory.length > 2 && this.ackHistory[1]!.clientAt <= clientAt - RATE_SPAN_MS) {
      this.ackHistory.shift();
    }
    const start = this.ackHistory[0]!;
    if (clientAt - start.clientAt >= RATE_SPAN_MS) {
      this.rates.push({ at: now, value: ((total - start.bytes) * 8) / (clientAt - start.clientAt) });
      trim(this.rates, now - CAPACITY_WINDOW_MS);
    }
  }

  /** What the link showed lately carries over no further: after congestion, the old capacity is history. */
  forgetCapacity(): void {
    this.rates.length = 0;
  }

  signals(now: number): TLinkSignals {
    trim(this.rates, now - CAPACITY_WINDOW_MS);
    const baseRtt = this.baseRttMs(now);
    const oldest = this.unacked[0];
    const waiting = oldest ? now - oldest.at - baseRtt - ACK_INTERVAL_MS : 0;
    // The last ack's delay speaks for the link only while acks keep coming: on a still page nothing is sent.
    const fresh = now - this.lastAckAt <= FRESH_ACK_MS ? this.lastDelayMs - baseRtt : 0;
    const queueDelayMs = Math.max(0, fresh, waiting);
    const recent = this.deliveries.filter((delivery) => delivery.at >= now - DELIVERY_WINDOW_MS);
    const deliveredBytes = recent.reduce((sum, delivery) => sum + delivery.bytes, 0);
    return {
      queueDelayMs,
      deliveryKbps: (deliveredBytes * 8) / DELIVERY_WINDOW_MS,
      capacityKbps: this.rates.length > 0 ? Math.max(...this.rates.map((sample) => sample.value)) : 0,
      inFlight: this.inFlight,
      baseRttMs: baseRtt,
    };
  }

  /** The link's own round trip (ms), 0 until an ack was measured. */
  baseRttMs(now: number): number {
    trim(this.rtts, now - RTT_WINDOW_MS);
    return this.rtts.length > 0 ? Math.min(...this.rtts.map((sample) => sample.value)) : 0;
  }
}

function trim(samples: TSample[], before: number): void {
  while (samples.length > 0 && samples[0]!.at < before) samples.shift();
}
