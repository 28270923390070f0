/** Where a `--precision` run stops, decided in chunk order whichever lane ran each chunk. */
import { CounterTally } from '../model/counters.js';
import { precisionReached, type PrecisionTarget } from '../results/precision.js';
import { CONFIRMED, STOP, type ChunkTotals } from './lane.js';

/**
 * Decides where a precision run stops: takes each chunk's counter sums as lanes report them,
 * adds them in chunk order, and after each one checks the target. Moving the confirmed point
 * lets lanes add their held chunks; the stop makes them drop the chunks after it.
 */
export class Confirmer {
  reached = false;
  private readonly tally = new CounterTally();
  private readonly waiting = new Map<number, ChunkTotals>();
  private next: number;

  constructor(private readonly control: Int32Array, from: number, private readonly to: number, private readonly target: PrecisionTarget) {
    this.next = from;
  }

  take(totals: ChunkTotals): void {
    this.waiting.set(totals.index, totals);
  }

  /** Confirms the chunks whose sums have come in, in order, up to the first that meets the target. */
  confirm(): void {
    const start = this.next;
    while (!this.reached && this.next < this.to) {
      const t = this.waiting.get(this.next);
      if (!t) break;
      this.waiting.delete(this.next);
      this.tally.add(t.actions, t.sum, t.sumSq);
      this.next++;
      this.reached = precisionReached(this.tally, this.target);
    }
    if (this.next === start) return;
    if (this.reached) Atomics.store(this.control, STOP, this.next);
    Atomics.store(this.control, CONFIRMED, this.next);
    Atomics.notify(this.control, CONFIRMED); // wakes lanes waiting to run ahead or to settle
  }
}
