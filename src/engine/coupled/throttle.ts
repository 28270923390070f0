/**
 * gRPC's retry throttling (docs/model.md, "Capacity", version 4; gRPC proposal A6): one counter
 * for every call of the tool, full (`max_tokens`) at the start. Every outcome the client learns
 * that fails (timed out, 5xx, 409, 503) takes 1, never below 0; a success adds `token_ratio`,
 * never above `max_tokens`; a 422 changes nothing. A retry is sent only while the counter is
 * above `max_tokens / 2`, checked once when the client decides to retry. Kept in integer
 * thousandths (gRPC's milli-tokens), so runs agree bit for bit.
 */
import type { Scenario } from '../../model/types.js';
import { CONFLICT_409, ERR_5XX, MISMATCH_422, NO_REPLY, OK, SHED_503, STORE_503 } from '../attempt.js';
import { NoGuard } from './guard.js';

type ThrottleSpec = NonNullable<Scenario['client']['retry_throttle']>;

/** What an outcome does to the counter, by status + 1 (NO_REPLY, OK, 5xx, 409, 422, store 503, shed 503): -1 takes 1, +1 adds the ratio, 0 nothing. */
const EFFECT = new Int8Array(7);
for (const failed of [NO_REPLY, ERR_5XX, CONFLICT_409, STORE_503, SHED_503]) EFFECT[failed + 1] = -1;
EFFECT[OK + 1] = 1;
EFFECT[MISMATCH_422 + 1] = 0;

export class RetryThrottle extends NoGuard {
  /** The counter and its most, in thousandths. */
  private milli: number;
  private readonly most: number;
  private readonly ratio: number;

  constructor(spec: ThrottleSpec) {
    super();
    this.milli = this.most = Math.round(spec.max_tokens * 1000);
    this.ratio = Math.round(spec.token_ratio * 1000);
  }

  override learned(_x: number, _i: number, _serial: number, status: number): void {
    const effect = EFFECT[status + 1] as number;
    if (effect < 0) this.milli = Math.max(0, this.milli - 1000);
    else if (effect > 0) this.milli = Math.min(this.most, this.milli + this.ratio);
  }

  /** Above half the most: 2·counter > most, in whole thousandths. */
  override allowsRetry(_i: number, _status: number): boolean {
    return 2 * this.milli > this.most;
  }

  /** The counter in tokens (for tests). */
  get tokens(): number {
    return this.milli / 1000;
  }
}
