/**
 * Time for the probe, in the scenario's milliseconds. The same client and server code runs on
 * a real clock (the probe, time compressed by a speed-up) and on a virtual one (the model's
 * prediction for the same stream, where time jumps from one timer to the next).
 */

export interface Clock {
  /** Scenario milliseconds since the stream started. */
  now(): number;
  /**
   * Resolves `ms` scenario milliseconds from now. A `late` timer resolves after the others due
   * at the same instant (a client's timeout loses a tie with a reply: docs/model.md, x <= timeout).
   */
  sleep(ms: number, late?: boolean): Promise<void>;
}

export function sleepUntil(clock: Clock, at: number, late = false): Promise<void> {
  return clock.sleep(Math.max(0, at - clock.now()), late);
}

/** Real time, `speedup` scenario milliseconds to the real one. Once `signal` aborts, every sleep ends at once. */
export class RealClock implements Clock {
  private readonly start = performance.now();
  private readonly pending = new Set<() => void>();

  constructor(readonly speedup: number, private readonly signal?: AbortSignal) {
    signal?.addEventListener('abort', () => { for (const wake of [...this.pending]) wake(); }, { once: true });
  }

  now(): number {
    return (performance.now() - this.start) * this.speedup;
  }

  sleep(ms: number): Promise<void> {
    if (this.signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.pending.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms / this.speedup);
      this.pending.add(wake);
    });
  }
}

interface Timer { at: number; late: number; seq: number; resolve: () => void }

const before = (a: Timer, b: Timer): boolean => a.at < b.at || (a.at === b.at && (a.late < b.late || (a.late === b.late && a.seq < b.seq)));

/**
 * Virtual time: `run` lets every continuation finish (all of them are promise callbacks, run
 * before the next macrotask), then moves time to the earliest timer and resolves it. Ties
 * resolve in the order the timers were set (late ones last), so a run is deterministic.
 */
export class VirtualClock implements Clock {
  private t = 0;
  private seq = 0;
  private readonly heap: Timer[] = [];

  now(): number {
    return this.t;
  }

  sleep(ms: number, late = false): Promise<void> {
    return new Promise((resolve) => this.push({ at: this.t + Math.max(0, ms), late: late ? 1 : 0, seq: this.seq++, resolve }));
  }

  /** Drives `work` to its end in virtual time. */
  async run<T>(work: Promise<T>): Promise<T> {
    let settled = false;
    work.then(() => { settled = true; }, () => { settled = true; });
    for (;;) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      const timer = this.pop();
      if (!timer) break;
      this.t = timer.at;
      timer.resolve();
    }
    if (!settled) throw new Error('virtual clock: the work waits on something other than a timer');
    return work;
  }

  private push(timer: Timer): void {
    const h = this.heap;
    h.push(timer);
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(timer, h[parent] as Timer)) break;
      h[i] = h[parent] as Timer;
      i = parent;
    }
    h[i] = timer;
  }

  private pop(): Timer | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (top === undefined || last === undefined || h.length === 0) return top;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= h.length) break;
      const r = l + 1;
      const c = r < h.length && before(h[r] as Timer, h[l] as Timer) ? r : l;
      if (!before(h[c] as Timer, last)) break;
      h[i] = h[c] as Timer;
      i = c;
    }
    h[i] = last;
    return top;
  }
}
