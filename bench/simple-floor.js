#!/usr/bin/env node
// Nanoseconds a simple group costs in its parts (not a test), after `npx tsc -p tsconfig.json`:
// `node bench/simple-floor.js [yaml]` (default: the lab with scope intent). A simple group (no
// twin, one attempt answered in time, no replay: engine/draws.ts) is what most of the lab's
// actions are; this times the engine's own pieces in a plain loop of that work alone, with no
// general model, no chunk output and no merging, as the floor of what the chunk engine's fast
// path can cost (docs/performance.md, "What the processor waited on"):
//
// - arrivals   the chunk's arrival times: an exponential gap a group (random/exponential.ts);
// - base       the arrivals, and each group's uniform with its latency from the cut's table
//              (model/latency/table.ts, belowQuick), a group the table does not draw quickly
//              drawn by `below` instead;
// - + cell     base, and the key row on the peak grid (engine/peak.ts, addRow);
// - + bin      base, and the latency's histogram bin (engine/bins.ts);
// - all        base with both: what the fast path does for a keyed simple group;
// - counted    the same work counted a grid cell at a time, a design study (bench/counted.js,
//              docs/performance.md "Counting rather than visiting"): the chunk's arrivals dealt
//              to the run's grid cells (a uniform each, counted), then in each cell a uniform a
//              group, from which a simple group's bin and its key row's end cell are drawn
//              together (an alias table), their counts added to the grid once a cell;
// - counted by binomials  the same, the cells' counts drawn by a binomial a cell.
//
// STEP=ms sets the grid step of the counted variants (default: a 4·10⁶-action run's, 100 ms in
// the lab); ONLY=name times one variant alone (to profile it).
// Each the best of ROUNDS rounds of CHUNKS chunks of 65,536 groups, the variants' rounds
// interleaved so that a slow spell of this shared machine falls on all of them.
import { compile } from '../dist/engine/compile.js';
import { binKey, LatencyBins } from '../dist/engine/bins.js';
import { D_NONE, withinTimeout } from '../dist/engine/draws.js';
import { KeyGrid } from '../dist/engine/peak.js';
import { gridStepFor } from '../dist/engine/grid.js';
import { standardExponential } from '../dist/random/exponential.js';
import { Alias, binomial } from './counted.js';
import { chunkRng } from '../dist/random/rng.js';
import { parseScenario } from '../dist/scenario/parse.js';

const N = 1 << 16;
const ROUNDS = 25;
const CHUNKS = 15;
const GAP_MS = 20; // the lab's 50 actions a second
const { scenario } = parseScenario(process.argv[2] ?? 'idempotency: {scope: intent}', 'bench');
const p = compile(scenario);
const rng = chunkRng('floor', 0);
const arrivals = new Float64Array(N);
const bins = new LatencyBins();
const grid = new KeyGrid(100, 1 << 16);

function drawArrivals() {
  let t = 0;
  for (let a = 0; a < N; a++) {
    t += standardExponential(rng) * GAP_MS;
    arrivals[a] = t;
  }
}

/** One chunk's groups, with the parts `parts` names (1: the grid cell, 2: the bin). */
function groups(parts) {
  const cut = p.cut, simpleP = p.reach[D_NONE];
  let other = 0;
  for (let a = 0; a < N; a++) {
    const u = rng.next();
    const v = u < simpleP ? u / simpleP : 1;
    let quick = cut.belowQuick(v);
    if (quick !== quick) {
      if (v === 1) { other++; continue; } // not simple: the general model's, not timed here
      quick = cut.below(v);
    }
    const s = arrivals[a];
    const done = s + withinTimeout(quick, p);
    if (parts & 1) grid.addRow(p.atomic ? s : done, done + p.retention);
    if (parts & 2) bins.countKey(binKey(done - s));
  }
  return other;
}

function chunks(parts, n) {
  let other = 0;
  for (let c = 0; c < n; c++) {
    if (parts >= 4) { other += counted(parts === 5); continue; }
    drawArrivals();
    if (parts >= 0) other += groups(parts);
  }
  return other;
}

/*
 * The counted design. Its joint table of (latency bin, end cell's offset) is estimated here from
 * draws, which times the same work as the exact table the engine would compute: a row starts in
 * the cell of its arrival (atomic claims) and ends in that cell + ceil(x + (latency + retention)
 * / step) − 1 for x its place in the cell, uniform on (0, 1].
 */
const STEP = Number(process.env.STEP ?? gridStepFor(scenario, 4e6)); // a 4·10⁶-action run's (100 ms in the lab)
const SPAN = N * GAP_MS;
const joint = (() => {
  const keys = new Map();
  const w = [];
  for (let j = 0; j < 1e6; j++) {
    const latency = withinTimeout(p.cut.below(Math.random()), p);
    const offset = Math.ceil(Math.random() + (latency + p.retention) / STEP) - 1;
    const key = `${binKey(latency)} ${offset}`;
    if (!keys.has(key)) { keys.set(key, w.length); w.push(0); }
    w[keys.get(key)]++;
  }
  const entries = [...keys.keys()].map((k) => k.split(' ').map(Number));
  const offsets = entries.map(([, o]) => o);
  const low = Math.min(...offsets);
  const binList = [...new Set(entries.map(([b]) => b))];
  return { alias: new Alias(w), binIndex: Int32Array.from(entries, ([b]) => binList.indexOf(b)), bins: binList.length, offset: Int32Array.from(offsets, (o) => o - low), low, width: Math.max(...offsets) - low + 1 };
})();
const jointCounts = new Int32Array(joint.binIndex.length);
const binTotals = new Float64Array(joint.bins);
const cellCount = new Int32Array(Math.ceil(SPAN / STEP));
const cellEnds = new Int32Array(joint.width);
const countedGrid = new Int32Array(Math.ceil(SPAN / STEP) + joint.low + joint.width + 1);

/**
 * One chunk counted a cell at a time; returns the groups that are not simple (the general model's).
 * The chunk's N − 1 arrivals (the last ends its span) are iid uniform on the span: their cells'
 * counts are a multinomial, drawn by `binomial`s a cell (byBinomials) or by a uniform an arrival
 * into a histogram.
 */
function counted(byBinomials) {
  const simpleP = p.reach[D_NONE];
  const { alias, offset, low, width } = joint;
  const cells = Math.ceil(SPAN / STEP);
  if (byBinomials) {
    let left = N - 1;
    for (let c = 0; c < cells; c++) {
      const k = binomial(rng, left, Math.min(STEP, SPAN - c * STEP) / (SPAN - c * STEP));
      cellCount[c] = k;
      left -= k;
    }
  } else {
    cellCount.fill(0, 0, cells);
    const perCell = SPAN / STEP;
    for (let j = 0; j < N - 1; j++) cellCount[(rng.next() * perCell) | 0]++;
  }
  let other = 0;
  for (let c = 0; c < cells; c++) {
    const k = cellCount[c];
    let simple = 0;
    for (let j = 0; j < k; j++) {
      const u = rng.next();
      if (u >= simpleP) { other++; rng.next(); continue; } // its place in the cell, for the general model
      const e = alias.draw(u / simpleP);
      jointCounts[e]++;
      cellEnds[offset[e]]++;
      simple++;
    }
    countedGrid[c] += simple;
    for (let o = 0; o < width; o++) { countedGrid[c + low + o] -= cellEnds[o]; cellEnds[o] = 0; }
  }
  countedGrid.fill(0);
  for (let e = 0; e < jointCounts.length; e++) { binTotals[joint.binIndex[e]] += jointCounts[e]; jointCounts[e] = 0; }
  return other;
}

const ALL = [['arrivals', -1], ['base', 0], ['+ cell', 1], ['+ bin', 2], ['all', 3], ['counted', 4], ['counted by binomials', 5]];
const VARIANTS = process.env.ONLY ? ALL.filter(([name]) => name === process.env.ONLY) : ALL; // ONLY: one variant (to profile it)
const best = new Map();
for (const [, parts] of VARIANTS) chunks(parts, 20); // warm-up
for (let r = 0; r < ROUNDS; r++) {
  for (const [name, parts] of VARIANTS) {
    const t0 = process.hrtime.bigint();
    chunks(parts, CHUNKS);
    const ns = Number(process.hrtime.bigint() - t0) / (CHUNKS * N);
    best.set(name, Math.min(best.get(name) ?? Infinity, ns));
  }
}
console.log(VARIANTS.map(([name]) => `${name} ${best.get(name).toFixed(1)}`).join(', ') + ` ns a group (best of ${ROUNDS} rounds; ${(100 * (1 - p.reach[D_NONE])).toFixed(1)}% of groups not simple, skipped)`);
