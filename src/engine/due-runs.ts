/**
 * A triggered group's runs by their next send (engine.ts): a binary heap of (time, actor) in
 * typed arrays, the earliest first and, at a tie, the lower actor (the order a scan of the actors
 * would take). A group may have thousands of runs in flight (a slow step behind a short ack
 * window, redelivered every window); a heap keeps each event at O(log runs).
 */
export class DueRuns {
  private time = new Float64Array(64);
  private actor = new Int32Array(64);
  size = 0;

  clear(): void {
    this.size = 0;
  }

  /** The earliest time (size > 0). */
  topTime(): number {
    return this.time[0] as number;
  }

  private before(x: number, y: number): boolean {
    const tx = this.time[x] as number, ty = this.time[y] as number;
    return tx < ty || (tx === ty && (this.actor[x] as number) < (this.actor[y] as number));
  }

  private swap(x: number, y: number): void {
    const t = this.time[x] as number, a = this.actor[x] as number;
    this.time[x] = this.time[y] as number; this.actor[x] = this.actor[y] as number;
    this.time[y] = t; this.actor[y] = a;
  }

  push(time: number, actor: number): void {
    if (this.size === this.time.length) {
      const t = new Float64Array(this.size * 2); t.set(this.time); this.time = t;
      const a = new Int32Array(this.size * 2); a.set(this.actor); this.actor = a;
    }
    let j = this.size++;
    this.time[j] = time;
    this.actor[j] = actor;
    while (j > 0) {
      const up = (j - 1) >> 1;
      if (!this.before(j, up)) break;
      this.swap(j, up);
      j = up;
    }
  }

  /** Takes the earliest run off and returns its actor (size > 0). */
  pop(): number {
    const top = this.actor[0] as number;
    const last = --this.size;
    this.time[0] = this.time[last] as number;
    this.actor[0] = this.actor[last] as number;
    let j = 0;
    for (;;) {
      const l = 2 * j + 1, r = l + 1;
      let m = j;
      if (l < last && this.before(l, m)) m = l;
      if (r < last && this.before(r, m)) m = r;
      if (m === j) return top;
      this.swap(j, m);
      j = m;
    }
  }
}
