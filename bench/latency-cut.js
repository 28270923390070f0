#!/usr/bin/env node
// Nanoseconds per latency draw (not a test), after `npx tsc -p tsconfig.json`:
// `node bench/latency-cut.js [lab | mission-2] [--json]`. For the lab's lognormal (median 300 ms,
// sigma 0.6, timeout 1 s) and mission 2's (median 1200 ms, sigma 0.6, timeout 600 ms), or the one
// named: alone in its process its figures are steadier, as V8 compiles the loops for the first
// case it sees (the second in a process came out up to 2 ns a draw apart from its own run alone).
//
// - rng       rng.next() alone, the cost every other line includes;
// - sample    the sampler's own draw, sample(rng): a ziggurat normal and Math.exp;
// - below     the cut's draw below the timeout, cut.below(rng.next()) (model/latency/table.ts);
// - split     the draw of either side from one uniform, as the engine makes it:
//             u < pBelow ? below(u / pBelow) : above((u - pBelow) / pAbove);
// - exact     the share of split draws that take the exact quantile rather than the table;
// - built     the time to build every cell of both sides (the first case's includes V8's warm-up).
//
// Each the median of ROUNDS rounds of DRAWS draws, the rounds of the four loops interleaved so
// that a slow spell of the machine falls on all of them.
import { compileLatency } from '../dist/model/latency.js';
import { CELLS } from '../dist/model/latency/table.js';
import { chunkRng } from '../dist/random/rng.js';

const DRAWS = 1_000_000;
const ROUNDS = 31;
const CASES = [
  { name: 'lab', median: 300, sigma: 0.6, timeout: 1000 },
  { name: 'mission-2', median: 1200, sigma: 0.6, timeout: 600 },
];
const named = CASES.filter((c) => process.argv.includes(c.name));

// One function per loop, so that each call site sees one receiver.
function rngOnly(rng) {
  let sum = 0;
  for (let i = 0; i < DRAWS; i++) sum += rng.next();
  return sum;
}
function sampled(sampler, rng) {
  let sum = 0;
  for (let i = 0; i < DRAWS; i++) sum += sampler.sample(rng);
  return sum;
}
function below(cut, rng) {
  let sum = 0;
  for (let i = 0; i < DRAWS; i++) sum += cut.below(rng.next());
  return sum;
}
function split(cut, rng) {
  const pBelow = cut.pBelow, pAbove = cut.pAbove;
  let sum = 0;
  for (let i = 0; i < DRAWS; i++) {
    const u = rng.next();
    sum += u < pBelow ? cut.below(u / pBelow) : cut.above((u - pBelow) / pAbove);
  }
  return sum;
}

/** The share of split draws whose cell is drawn by the exact quantile. */
function exactShare(cut) {
  const { below, above } = cut.cells();
  const exact = (tabled) => tabled.filter((t) => !t).length / CELLS;
  return cut.pBelow * exact(below) + cut.pAbove * exact(above);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

const results = [];
for (const c of named.length > 0 ? named : CASES) {
  const sampler = compileLatency({ dist: 'lognormal', median: c.median, sigma: c.sigma });
  // Every cell of both sides built at once; a run builds a cell at its first draw.
  const started = process.hrtime.bigint();
  sampler.cut(c.timeout).cells();
  const buildMs = Number(process.hrtime.bigint() - started) / 1e6;
  const cut = sampler.cut(c.timeout);
  const rng = chunkRng('bench', 0);
  const loops = { rng: () => rngOnly(rng), sample: () => sampled(sampler, rng), below: () => below(cut, rng), split: () => split(cut, rng) };
  const times = Object.fromEntries(Object.keys(loops).map((k) => [k, []]));
  let sink = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (const [k, loop] of Object.entries(loops)) {
      const t = process.hrtime.bigint();
      sink += loop();
      times[k].push(Number(process.hrtime.bigint() - t) / DRAWS);
    }
  }
  if (Number.isNaN(sink)) throw new Error('a draw was NaN');
  results.push({ case: c.name, ...Object.fromEntries(Object.entries(times).map(([k, ts]) => [`${k}_ns`, +median(ts.slice(1)).toFixed(2)])),
    exact_share: +exactShare(cut).toFixed(5), p_below: +cut.pBelow.toFixed(6), build_ms: +buildMs.toFixed(1) });
}

if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify({ cells: CELLS, results })}\n`);
else {
  console.log(`cells ${CELLS}; ns per draw, median of ${ROUNDS - 1} rounds of ${DRAWS.toLocaleString('en-US')}`);
  for (const r of results) {
    console.log(`${r.case.padEnd(10)} rng ${r.rng_ns}  sample ${r.sample_ns}  below ${r.below_ns}  split ${r.split_ns}  `
      + `exact ${(100 * r.exact_share).toFixed(2)}%  pBelow ${r.p_below}  all cells built in ${r.build_ms} ms`);
  }
}
