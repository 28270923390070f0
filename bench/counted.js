// The parts of a design study (not a test, not the engine's): simple groups counted a grid cell
// at a time rather than visited one by one (docs/performance.md, "Counting rather than
// visiting"). bench/simple-floor.js times it beside the engine's own loop of the same work.
//
// - `binomial(rng, n, p)`: an exact binomial draw, Hörmann's BTRD (transformed rejection with
//   decomposition, "The generation of binomial random variates", 1993) where n·min(p, 1 − p) >= 10,
//   else inversion from the mode's side: the chunk's arrivals split among its cells.
// - `Alias`: Vose's alias table of a discrete distribution, one uniform a draw: a simple group's
//   latency bin and its key row's end cell, drawn together from their joint distribution.

/** log(k!) − Stirling's approximation of it, for k = 0..9 (then the series). */
const FC = [0.08106146679532726, 0.04134069595540929, 0.02767792568499834, 0.02079067210376509,
  0.01664469118982119, 0.01387612882307075, 0.01189670994589177, 0.01041126526197209,
  0.00925546218271273, 0.00833056343336287];

function fc(k) {
  if (k < 10) return FC[k];
  const r = 1 / (k + 1);
  const rr = r * r;
  return (1 / 12 - (1 / 360 - rr / 1260) * rr) * r;
}

/** An exact Binomial(n, p) draw from `rng` (next(): a uniform on [0, 1)). */
export function binomial(rng, n, p) {
  if (n <= 0 || p <= 0) return 0;
  if (p >= 1) return n;
  if (p > 0.5) return n - binomial(rng, n, 1 - p);
  if (n * p < 10) return inversion(rng, n, p);
  return btrd(rng, n, p);
}

/** Inversion by sequential search from 0 (mean below 10: a few steps). */
function inversion(rng, n, p) {
  const q = 1 - p;
  const s = p / q;
  let f = q ** n;
  let u = rng.next();
  for (let k = 0; k <= n; k++) {
    if (u < f) return k;
    u -= f;
    f *= (s * (n - k)) / (k + 1);
  }
  return n;
}

function btrd(rng, n, p) {
  const q = 1 - p;
  const m = Math.floor((n + 1) * p);
  const r = p / q;
  const nr = (n + 1) * r;
  const npq = n * p * q;
  const sq = Math.sqrt(npq);
  const b = 1.15 + 2.53 * sq;
  const a = -0.0873 + 0.0248 * b + 0.01 * p;
  const c = n * p + 0.5;
  const alpha = (2.83 + 5.1 / b) * sq;
  const vr = 0.92 - 4.2 / b;
  const urvr = 0.86 * vr;
  for (;;) {
    let v = rng.next();
    let u;
    if (v <= urvr) {
      u = v / vr - 0.43;
      return Math.floor(((2 * a) / (0.5 - Math.abs(u)) + b) * u + c);
    }
    if (v >= vr) {
      u = rng.next() - 0.5;
    } else {
      u = v / vr - 0.93;
      u = Math.sign(u) * 0.5 - u;
      v = rng.next() * vr;
    }
    const us = 0.5 - Math.abs(u);
    const k = Math.floor(((2 * a) / us + b) * u + c);
    if (k < 0 || k > n) continue;
    v = (v * alpha) / (a / (us * us) + b);
    const km = Math.abs(k - m);
    if (km <= 15) {
      let f = 1;
      if (m < k) for (let i = m + 1; i <= k; i++) f *= nr / i - r;
      else if (m > k) for (let i = k + 1; i <= m; i++) v *= nr / i - r;
      if (v <= f) return k;
      continue;
    }
    v = Math.log(v);
    const rho = (km / npq) * (((km / 3 + 0.625) * km + 1 / 6) / npq + 0.5);
    const t = (-km * km) / (2 * npq);
    if (v < t - rho) return k;
    if (v > t + rho) continue;
    const nm = n - m + 1;
    const h = (m + 0.5) * Math.log((m + 1) / (r * nm)) + fc(m) + fc(n - m);
    const nk = n - k + 1;
    if (v <= h + (n + 1) * Math.log(nm / nk) + (k + 0.5) * Math.log((nk * r) / (k + 1)) - fc(k) - fc(n - k)) return k;
  }
}

const F64 = new Float64Array(1);
const WORDS = new Int32Array(F64.buffer); // little-endian: WORDS[1] holds the sign

/** Vose's alias table of the weights `w` (not all zero): `draw(u)` maps a uniform on [0, 1) to an index. */
export class Alias {
  constructor(w) {
    const k = w.length;
    const total = w.reduce((s, x) => s + x, 0);
    this.k = k;
    this.prob = new Float64Array(k);
    this.alias = new Int32Array(k);
    const scaled = w.map((x) => (x * k) / total);
    const small = [], large = [];
    scaled.forEach((x, i) => (x < 1 ? small : large).push(i));
    while (small.length > 0 && large.length > 0) {
      const s = small.pop(), l = large.pop();
      this.prob[s] = scaled[s];
      this.alias[s] = l;
      scaled[l] = scaled[l] + scaled[s] - 1;
      (scaled[l] < 1 ? small : large).push(l);
    }
    for (const i of [...small, ...large]) { this.prob[i] = 1; this.alias[i] = i; }
  }

  /**
   * Without a branch: whether a draw keeps its column or takes the alias is a coin toss the
   * processor would mispredict; the sign of (x − i) − prob[i] says it (as engine/bins.ts's binKey).
   */
  draw(u) {
    const x = u * this.k;
    const i = x | 0;
    const a = this.alias[i];
    F64[0] = x - i - this.prob[i];
    return a + ((WORDS[1] >> 31) & (i - a));
  }
}
