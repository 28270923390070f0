/**
 * The client's circuit breaker (docs/model.md, "Capacity"). It counts attempt outcomes when the
 * client learns them: timeouts, 5xx and 503s fail, every other reply succeeds. Closed, it opens
 * when an outcome leaves at least `min_calls` outcomes in the last `window` ((e - window, e]) of
 * which at least `failure_rate` failed; opening empties the window. Open, every attempt is
 * rejected until `open_for` has passed; then the next attempt goes out as the probe (half-open)
 * and every other is rejected until its outcome: a success closes the breaker (window emptied),
 * a failure opens it again. While open or half-open only the probe's outcome counts.
 */
import type { Scenario } from '../../model/types.js';
import { NoGuard } from './guard.js';
import { unrolled } from './grow.js';

type BreakerSpec = NonNullable<Scenario['client']['breaker']>;

const CLOSED = 0, OPEN = 1, PROBING = 2;

/** Failed outcomes: a timeout, a 5xx, a 503 (of a down store or shed); every other reply succeeds. */
const FAILS = new Uint8Array([1, 0, 1, 0, 0, 1, 1]); // index: status + 1 (NO_REPLY, OK, 5xx, 409, 422, store 503, shed 503)

export class Breaker extends NoGuard {
  private state = CLOSED;
  /** The closed breaker's window: outcome times and whether each failed, oldest first (a ring). */
  private times = new Float64Array(64);
  private failed = new Uint8Array(64);
  private head = 0;
  private size = 0;
  private failures = 0;
  private openedAt = 0;
  private probeActor = -1;
  private probeSerial = -1;
  /** Times it opened (for tests and the trace). */
  opened = 0;

  constructor(private readonly spec: BreakerSpec) {
    super();
  }

  /**
   * Whether actor `i` may send its attempt (its serial will be `serial`) at `x`; when the
   * breaker is due to turn half-open, this attempt becomes the probe.
   */
  override allowsSend(x: number, i: number, serial: number): boolean {
    if (this.state === CLOSED) return true;
    if (this.state === PROBING || x < this.openedAt + this.spec.open_for) return false;
    this.state = PROBING;
    this.probeActor = i;
    this.probeSerial = serial;
    return true;
  }

  /** The client learned, at `e`, the outcome `status` of actor `i`'s attempt `serial`. */
  override learned(e: number, i: number, serial: number, status: number): void {
    this.record(e, FAILS[status + 1] === 1, i, serial);
  }

  /** An outcome at `e`, failed or not, of actor `i`'s attempt `serial`. */
  record(e: number, fail: boolean, i: number, serial: number): void {
    if (this.state === PROBING) {
      if (i !== this.probeActor || serial !== this.probeSerial) return;
      if (fail) this.open(e); else this.close();
      return;
    }
    if (this.state === OPEN) return;
    if (this.size === this.times.length) this.growWindow();
    const mask = this.times.length - 1;
    const at = (this.head + this.size++) & mask;
    this.times[at] = e;
    this.failed[at] = fail ? 1 : 0;
    if (fail) this.failures++;
    const from = e - this.spec.window;
    while (this.size > 0 && (this.times[this.head] as number) <= from) {
      this.failures -= this.failed[this.head] as number;
      this.head = (this.head + 1) & mask;
      this.size--;
    }
    if (this.size >= this.spec.min_calls && this.failures / this.size >= this.spec.failure_rate) this.open(e);
  }

  private open(e: number): void {
    this.state = OPEN;
    this.openedAt = e;
    this.opened++;
    this.empty();
  }

  private close(): void {
    this.state = CLOSED;
    this.empty();
  }

  private empty(): void {
    this.head = 0;
    this.size = 0;
    this.failures = 0;
  }

  private growWindow(): void {
    this.times = unrolled(this.times, this.head, this.size);
    this.failed = unrolled(this.failed, this.head, this.size);
    this.head = 0;
  }
}
