#!/usr/bin/env node
// Benchmark (not a test): `npm run bench` (builds first). Prints a table; `-- --json` prints JSON.
//
// - actions/s, median of RUNS runs after a warm-up, on three scenarios, on 1 thread and on
//   all cores, through the same runner as `idem-sim run` (chunks summed, grid and all;
//   worker start-up included, so all-cores runs use 10 M actions per thread);
// - the RNG floor: the time to draw as many random numbers, with the same generator and
//   samplers, as the 1-thread run consumed, and the run's time over that floor;
// - the numpy baseline: the guide's simplest case (blind retries) vectorised in numpy, if
//   `python3 -c "import numpy"` works, and our full-model rate over it;
// - peak RSS of this process (workers are threads, so included) and the machine.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { runScenario } from '../dist/exec/runner.js';
import { standardExponential } from '../dist/model/exponential.js';
import { compileLatency } from '../dist/model/latency.js';
import { chunkRng } from '../dist/model/rng.js';
import { parseScenario } from '../dist/scenario/parse.js';

const RUNS = 5;
const ACTIONS = Number(process.env.BENCH_ACTIONS ?? 4_000_000); // one-thread runs
const ACTIONS_PER_THREAD = 10_000_000; // all-threads runs: enough to amortise starting the workers
const json = process.argv.includes('--json');
const CASES = [
  { name: 'lab defaults, scope none', yaml: '' },
  { name: 'lab defaults, scope intent', yaml: 'idempotency: {scope: intent}' },
  { name: 'mission 2 (slow downstream)', yaml: 'service: {latency: {median: 1200ms}}\nclient: {timeout: 600ms}\nidempotency: {scope: call}' },
];
const here = (f) => fileURLToPath(new URL(f, import.meta.url));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const seconds = (t0) => Number(process.hrtime.bigint() - t0) / 1e9;

async function rate(scenario, actions, threads) {
  await runScenario({ scenario: { ...scenario, actions: Math.min(actions, 100_000) }, seed: 'warm-up', threads });
  const rates = [];
  for (let r = 0; r < RUNS; r++) {
    const t0 = process.hrtime.bigint();
    await runScenario({ scenario: { ...scenario, actions }, seed: String(r), threads });
    rates.push(actions / seconds(t0));
  }
  return median(rates);
}

/** Seconds to draw what one run drew: A exponential gaps, H latencies, the rest as uniforms. */
function floorSeconds(scenario, counts) {
  const rng = chunkRng('floor', 0);
  const latency = compileLatency(scenario.service.latency);
  const uniforms = Math.max(0, counts.draws - counts.primaries - counts.handlerRuns);
  const times = [];
  for (let r = 0; r < RUNS; r++) {
    let sink = 0;
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < counts.primaries; i++) sink += standardExponential(rng);
    for (let i = 0; i < counts.handlerRuns; i++) sink += latency.sample(rng);
    for (let i = 0; i < uniforms; i++) sink += rng.next();
    times.push(seconds(t0));
    if (sink === -1) console.log(sink); // keep the loops
  }
  return median(times);
}

function numpyBaseline() {
  try {
    return JSON.parse(execFileSync('python3', [here('numpy_baseline.py'), String(4 * ACTIONS), String(RUNS)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
  } catch {
    return null; // python3 or numpy missing
  }
}

const threadsAll = os.availableParallelism();
const results = [];
for (const c of CASES) {
  const { scenario } = parseScenario(c.yaml, c.name);
  const one = await rate(scenario, ACTIONS, 1);
  const all = threadsAll > 1 ? await rate(scenario, ACTIONS_PER_THREAD * threadsAll, threadsAll) : one;
  const counts = JSON.parse(execFileSync(process.execPath, [here('count-draws.js'), JSON.stringify([c.yaml, ACTIONS, '0'])], { encoding: 'utf8' }));
  const floor = floorSeconds(scenario, counts);
  results.push({
    case: c.name, actions_per_run: ACTIONS, runs: RUNS,
    one_thread_actions_per_s: Math.round(one), all_threads_actions_per_s: Math.round(all), threads: threadsAll,
    speedup: all / one, random_numbers_per_action: counts.draws / counts.primaries,
    rng_floor_ratio: ACTIONS / one / floor,
  });
}
const numpy = numpyBaseline();
const intent = results[1];
const report = {
  machine: { cores: threadsAll, cpu: os.cpus()[0]?.model ?? 'unknown', node: process.version },
  results,
  numpy: numpy && { ...numpy, idem_sim_intent_over_numpy: intent.one_thread_actions_per_s / numpy.median_actions_per_s },
  peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
};

if (json) {
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
} else {
  const m = (x) => `${(x / 1e6).toFixed(2)} M/s`;
  const rows = results.map((r) => [r.case, m(r.one_thread_actions_per_s), `${m(r.all_threads_actions_per_s)} (${r.speedup.toFixed(2)}x)`,
    r.random_numbers_per_action.toFixed(1), `${r.rng_floor_ratio.toFixed(2)}x`]);
  const head = ['case', '1 thread', `${threadsAll} threads`, 'draws/action', 'time / RNG floor'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(line(head));
  for (const r of rows) console.log(line(r));
  console.log(numpy
    ? `numpy ${numpy.numpy}, blind retries only: ${m(numpy.median_actions_per_s)} (${numpy.duplicates_per_1000.toFixed(1)} duplicates/1000); idem-sim full model, scope intent, 1 thread: ${report.numpy.idem_sim_intent_over_numpy.toFixed(2)}x of it`
    : 'numpy baseline skipped: python3 with numpy not found');
  console.log(`peak RSS ${report.peak_rss_mb} MB; ${report.machine.cores} cores, ${report.machine.cpu}, Node ${report.machine.node}; medians of ${RUNS} runs`);
}
