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
// - all        base with both: what the fast path does for a keyed simple group.
//
// Each the best of ROUNDS rounds of CHUNKS chunks of 65,536 groups, the variants' rounds
// interleaved so that a slow spell of this shared machine falls on all of them.
import { compile } from '../dist/engine/compile.js';
import { binKey, LatencyBins } from '../dist/engine/bins.js';
import { D_NONE, withinTimeout } from '../dist/engine/draws.js';
import { KeyGrid } from '../dist/engine/peak.js';
import { standardExponential } from '../dist/random/exponential.js';
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
    drawArrivals();
    if (parts >= 0) other += groups(parts);
  }
  return other;
}

const VARIANTS = [['arrivals', -1], ['base', 0], ['+ cell', 1], ['+ bin', 2], ['all', 3]];
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
