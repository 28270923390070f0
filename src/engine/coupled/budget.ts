/**
 * The client's retry budget (docs/model.md, "Capacity"): a token bucket for all calls of the
 * tool, full at the start (the AWS SDKs' standard retry mode). A retry takes `timeout_cost`
 * tokens after an attempt that timed out, else `retry_cost`, when the client decides to retry;
 * with fewer left it is denied. A success puts back what its own retry took, or
 * `success_refund` after a call's first attempt, never above the bucket's size.
 */
import type { Scenario } from '../../model/types.js';
import { NO_REPLY } from '../attempt.js';
import { NoGuard } from './guard.js';
import { grown } from './grow.js';

type BudgetSpec = NonNullable<Scenario['client']['retry_budget']>;

export class RetryBudget extends NoGuard {
  private tokens: number;
  private readonly size: number;
  private readonly retryCost: number;
  private readonly timeoutCost: number;
  private readonly successRefund: number;
  /** Tokens each actor's current retry took. */
  private taken = new Int32Array(0);

  constructor(spec: BudgetSpec) {
    super();
    this.tokens = this.size = spec.tokens;
    this.retryCost = spec.retry_cost;
    this.timeoutCost = spec.timeout_cost;
    this.successRefund = spec.success_refund;
  }

  /** Takes the retry's tokens after an attempt that timed out (else a 5xx, 409 or 503); denied when too few are left. */
  override allowsRetry(i: number, status: number): boolean {
    const cost = status === NO_REPLY ? this.timeoutCost : this.retryCost;
    if (this.tokens < cost) return false;
    this.tokens -= cost;
    this.taken[i] = cost;
    return true;
  }

  /** A success puts back what its retry took, or the refund of a call's first attempt. */
  override succeeded(i: number, first: boolean): void {
    this.tokens = Math.min(this.size, this.tokens + (first ? this.successRefund : (this.taken[i] as number)));
  }

  override grow(actors: number): void {
    this.taken = grown(this.taken, actors);
  }

  /** Tokens left (for tests). */
  get left(): number {
    return this.tokens;
  }
}
