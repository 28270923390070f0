/**
 * A minimum of a smooth function of a few numbers, by Nelder and Mead's simplex with the
 * standard coefficients (reflection 1, expansion 2, contraction 1/2, shrink 1/2; Lagarias et
 * al., SIAM J. Optim. 9(1), 1998), restarted from its result until a restart gains nothing, as
 * the simplex may stall on a ridge. It needs no derivatives, and a point the function refuses
 * (Infinity, as outside a parameter's range) is simply the worst.
 */

export interface Minimum { readonly x: readonly number[]; readonly value: number }

interface Options {
  /** The first simplex: x0 and x0 plus each step along its axis. */
  readonly steps: readonly number[];
  /**
   * Stop when the simplex's values agree within this. Not when its points agree: where the data
   * cannot tell parameters apart (a mixture's second component where one lognormal fits) the
   * function is flat along them, and the simplex would wander there long after the value is found.
   */
  readonly fTol: number;
  /** The most evaluations of one descent. */
  readonly maxEvals: number;
}

const plus = (a: readonly number[], b: readonly number[], t: number): number[] => a.map((v, i) => v + t * ((b[i] as number) - v));

/** One descent from x0. */
function descend(f: (x: readonly number[]) => number, x0: readonly number[], o: Options): Minimum {
  let simplex = [x0, ...x0.map((_, i) => x0.map((v, j) => (j === i ? v + (o.steps[i] as number) : v)))].map((x) => ({ x, value: f(x) }));
  let evals = simplex.length;
  const n = x0.length;
  for (;;) {
    simplex.sort((a, b) => (a.value === b.value ? 0 : a.value < b.value ? -1 : 1)); // Infinity too
    const best = simplex[0] as Minimum, worst = simplex[n] as Minimum, next = simplex[n - 1] as Minimum;
    if (evals >= o.maxEvals || worst.value - best.value <= o.fTol) return best;
    const centre = x0.map((_, i) => simplex.slice(0, n).reduce((s, p) => s + (p.x[i] as number), 0) / n);
    const at = (t: number): Minimum => { evals++; const x = plus(centre, worst.x, -t); return { x, value: f(x) }; };
    const reflected = at(1);
    let replacement: Minimum | undefined;
    if (reflected.value < best.value) {
      const expanded = at(2);
      replacement = expanded.value < reflected.value ? expanded : reflected;
    } else if (reflected.value < next.value) replacement = reflected;
    else {
      const contracted = reflected.value < worst.value ? at(0.5) : at(-0.5);
      if (contracted.value < Math.min(reflected.value, worst.value)) replacement = contracted;
    }
    if (replacement !== undefined) simplex[n] = replacement;
    else {
      simplex = simplex.map((p, i) => (i === 0 ? p : { x: plus(best.x, p.x, 0.5), value: NaN }));
      for (const p of simplex.slice(1)) { (p as { value: number }).value = f(p.x); evals++; }
    }
  }
}

/** The minimum found from x0: descents restarted from the last one's best point (at most 5) until one gains no more than fTol. */
export function nelderMead(f: (x: readonly number[]) => number, x0: readonly number[], o: Options): Minimum {
  let found = descend(f, x0, o);
  for (let restart = 0; restart < 5; restart++) {
    const again = descend(f, found.x, o);
    const gain = found.value - again.value;
    if (again.value < found.value) found = again;
    if (!(gain > o.fTol)) break;
  }
  return found;
}
