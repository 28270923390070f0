/**
 * The client's retry budget (docs/model.md, "Capacity"): a token bucket for all calls of the
 * tool, full at the start (the AWS SDKs' standard retry mode). A retry takes `timeout_cost`
 * tokens after an attempt that timed out, else `retry_cost`, when the client decides to retry;
 * with fewer left it is denied. A success puts back what its own retry took, or
 * `success_refund` after a call's first attempt, never above the bucket's size.
 */
import type { Scenario } from '../../model/types.js';

type BudgetSpec = NonNullable<Scenario['client']['retry_budget']>;

export class RetryBudget {
  private tokens: number;
  private readonly size: number;
  private readonly retryCost: number;
  private readonly timeoutCost: number;
  private readonly successRefund: number;

  constructor(spec: BudgetSpec) {
    this.tokens = this.size = spec.tokens;
    this.retryCost = spec.retry_cost;
    this.timeoutCost = spec.timeout_cost;
    this.successRefund = spec.success_refund;
  }

  /** Takes a retry's tokens after an attempt that `timedOut` (else a 5xx, 409 or 503); returns how many, or -1 when too few are left (denied). */
  take(timedOut: boolean): number {
    const cost = timedOut ? this.timeoutCost : this.retryCost;
    if (this.tokens < cost) return -1;
    this.tokens -= cost;
    return cost;
  }

  /** A success: `taken` back (what its retry took), or the refund of a call's first attempt when `taken` < 0. */
  refund(taken: number): void {
    this.tokens = Math.min(this.size, this.tokens + (taken < 0 ? this.successRefund : taken));
  }

  /** Tokens left (for tests). */
  get left(): number {
    return this.tokens;
  }
}
