#!/usr/bin/env node
// Benchmark (not a test): `npm run bench` (builds first). Prints a table; `npm run --silent bench -- --json` prints JSON.
//
// - one-thread throughput: actions/s, median of RUNS runs of 4 M actions after a warm-up, on
//   three scenarios, through the same runner as `idem-sim run` (chunks summed, grid and all);
// - the RNG floor: the time to draw as many random numbers, with the same generator and
//   samplers, as a run consumed, and the run's time over that floor (timed right after it);
// - the speed-up on all cores: the same run (10 M actions per thread; a quarter of that for
//   the slow mission 2) timed on 1 thread and on all cores, each in a fresh process as an
//   `idem-sim run` is (JIT warm-up and worker start included), and, as the machine's own
//   ceiling, one process per core, each with its share; ROUNDS rounds in rotating order and
//   the median of the rounds' own ratios, because this shared machine's speed drifts by tens
//   of percent within a minute;
// - the numpy baseline: the guide's simplest case (blind retries) vectorised in numpy, if
//   `python3 -c "import numpy"` works, measured in turns with the two lab cases (5 rounds), all
//   on one core where `taskset` is (this host's cores have differed by 1.7x), and each case's
//   rate over it, the median of the rounds' own ratios;
// - peak RSS (the largest of the measuring processes; workers are threads, so included) and the machine;
// - flat memory: one run of 10^9 actions (scope intent, all cores), its time and peak RSS
//   (skipped with `-- --quick`);
// - start-up (bench/startup.js): the wall time of `idem-sim --version`, `run` on the built-in
//   defaults and `run --actions 1000`, each over that of `node -e 0` (Node's own start), medians
//   taken in turns, and whether the bundle's code caches served;
// - limits: the times of the refusals and the long sweep table that the unit tests hold by
//   counting work (bench/limits.js).
// Each measurement runs in a process of its own (bench/case.js).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { exec, PIN } from './pin.js';

const RUNS = 5;
const ROUNDS = 7; // speed-up rounds: its spread here is wide
const NUMPY_ROUNDS = 5; // numpy against the lab cases, in turns
const ACTIONS = Number(process.env.BENCH_ACTIONS ?? 4_000_000); // one-thread throughput runs
const PER_THREAD = 10_000_000; // speed-up runs: actions per thread, enough to amortise starting the workers
const BILLION = 1e9;
const json = process.argv.includes('--json');
const quick = process.argv.includes('--quick');
const CASES = [
  { name: 'lab defaults, scope none', yaml: '', scale: 1 },
  { name: 'lab defaults, scope intent', yaml: 'idempotency: {scope: intent}', scale: 1 },
  { name: 'mission 2 (slow downstream)', yaml: 'service: {latency: {median: 1200ms}}\nclient: {timeout: 600ms}\nidempotency: {scope: call}', scale: 0.25 },
];
/**
 * Issue 15's speed case: an hour with a 10-minute incident window against the same hour without
 * it (scope intent, a 409 alert counting a 1-minute series in all), at the rate that makes the
 * case's actions an hour: a 2x and a 4x slowdown from minute 20 to 30, and the 4x slowdown for
 * the whole hour, which says what the window's own actions cost (its retries and 409s are work
 * the steady minutes do not have). The steady 50 minutes must cost what they cost without it.
 */
const INCIDENT_ACTIONS = Math.round(ACTIONS / 4);
const HOUR_RATE = INCIDENT_ACTIONS / 3600;
const HOUR = `actions: ${INCIDENT_ACTIONS}\nload: {rate_per_s: ${HOUR_RATE}}\nidempotency: {scope: intent}\nalerts: [{name: conflicts, metric: conflicts_409, above: 10, for: 2m}]`;
const slowdown = (x, from, to) => `${HOUR}\nincidents: [{name: slowdown, from: ${from}, to: ${to}, service: {latency_multiplier: ${x}}}]`;
const INCIDENT_CASES = [
  { name: 'an hour, no incident', yaml: HOUR },
  { name: 'a 10-minute 2x slowdown', yaml: slowdown(2, '20m', '30m') },
  { name: 'a 10-minute 4x slowdown', yaml: slowdown(4, '20m', '30m') },
  { name: 'the 4x slowdown all hour', yaml: slowdown(4, '0', '61m') },
];
/**
 * Capacity's speed cases (docs/model.md, "Capacity"), one thread, in turns with the chunk engine
 * on the lab defaults: the coupled engine at 78% of its workers in a system ten times the lab's
 * (230 workers at 500/s, steady for millions of actions), the lab defaults with 25 workers (72%)
 * and with 23 (78%) for an hour each (180,000 actions; at 23, most seeds tip into a storm within
 * the hour: docs/capacity.md), and the storm of scenarios/capacity-storm.yaml (90,000 actions
 * over its 30 minutes).
 */
const STORM = readFileSync(fileURLToPath(new URL('../scenarios/capacity-storm.yaml', import.meta.url)), 'utf8')
  .replace(/^load: .*$/m, 'actions: 90000\nload: {rate_per_s: 50}').replace(/^expect:[\s\S]*$/m, '');
const COUPLED_CASES = [
  { name: 'chunk engine, lab defaults', yaml: '', actions: ACTIONS },
  { name: 'coupled, 230 workers (78%) at 500/s', yaml: 'service: {capacity: {workers: 230}}\nload: {rate_per_s: 500}', actions: ACTIONS },
  { name: 'coupled, 25 workers (72%), 1 h', yaml: 'service: {capacity: {workers: 25}}', actions: 180_000 },
  { name: 'coupled, 23 workers (78%), 1 h', yaml: 'service: {capacity: {workers: 23}}', actions: 180_000 },
  { name: 'coupled, the storm (overload)', yaml: STORM, actions: 90_000 },
];
const here = (f) => fileURLToPath(new URL(f, import.meta.url));
const threadsAll = os.availableParallelism();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** One measurement of bench/case.js in a process of its own (several may run at once); `pinned`: on PIN's core. */
const child = async (mode, args, pinned = false) => JSON.parse(await exec(process.execPath, [here('case.js'), mode, JSON.stringify(args)], pinned));

/**
 * ROUNDS rounds of the same run three ways, each cold, in an order that rotates: on 1 thread;
 * on all cores through the runner; and as the machine's own ceiling, one 1-thread process per
 * core at once, each with its share of the actions (no runner involved: what the cores give
 * when nothing is shared but the hardware).
 */
async function speedup(c) {
  const actions = Math.round(PER_THREAD * c.scale) * threadsAll;
  const rounds = [];
  for (let r = 0; r < ROUNDS; r++) {
    const cold = (n, threads, seed = String(r)) => child('cold', [c.yaml, n, threads, seed]);
    const ways = [
      async () => ({ one: await cold(actions, 1) }),
      async () => ({ all: await cold(actions, threadsAll) }),
      async () => {
        const parts = await Promise.all(Array.from({ length: threadsAll }, (_, k) => cold(actions / threadsAll, 1, `${r}/${k}`)));
        return { processes: Math.max(...parts.map((p) => p.seconds)) };
      },
    ];
    const round = {};
    for (let k = 0; k < ways.length; k++) Object.assign(round, await ways[(r + k) % ways.length]());
    rounds.push(round);
  }
  const all = rounds.map((x) => x.all);
  return {
    actions,
    rate: actions / median(all.map((x) => x.seconds)),
    ratio: median(rounds.map((x) => x.one.seconds / x.all.seconds)),
    ratios: rounds.map((x) => x.one.seconds / x.all.seconds).sort((a, b) => a - b),
    ceiling: median(rounds.map((x) => x.one.seconds / x.processes)),
    ofCeiling: median(rounds.map((x) => x.processes / x.all.seconds)),
    workerShare: median(all.map((x) => 1 - x.chunks[0] / x.chunks.reduce((a, b) => a + b, 0))),
    peakRssMb: Math.max(...all.map((x) => x.peakRssMb)),
  };
}

/** One numpy measurement (on PIN's core): the median of `runs` runs of 4·ACTIONS actions, or null without python3 and numpy. */
async function numpyRun(runs) {
  try {
    return JSON.parse(await exec('python3', [here('numpy_baseline.py'), String(4 * ACTIONS), String(runs)], true));
  } catch {
    return null; // python3 or numpy missing
  }
}

/**
 * The numpy baseline against the lab's one-thread rates, in turns on one core (PIN): NUMPY_ROUNDS
 * rounds, each numpy (3 runs) and the two lab cases (3 warm runs each, bench/case.js `rate`), in an order that
 * alternates, and each case's ratio the median of the rounds' own ratios (numpy's rate moves by a
 * quarter between runs here, as much as the ratio is off 1).
 */
async function numpyInTurns() {
  if ((await numpyRun(1)) === null) return null;
  const lab = CASES.slice(0, 2);
  const rounds = [];
  for (let r = 0; r < NUMPY_ROUNDS; r++) {
    const round = { numpy: null, rates: [] };
    const ways = [async () => { round.numpy = await numpyRun(3); }, async () => { for (const c of lab) round.rates.push((await child('rate', [c.yaml, 3, ACTIONS], true)).rate); }];
    if (r % 2 === 1) ways.reverse();
    for (const way of ways) await way();
    rounds.push(round);
  }
  const rates = rounds.map((x) => x.numpy.median_actions_per_s);
  return {
    ...rounds[0].numpy, runs: 3, rounds: NUMPY_ROUNDS, core: PIN, median_actions_per_s: median(rates), actions_per_s_each_round: rates,
    cases: lab.map((c, k) => {
      const ratios = rounds.map((x) => x.rates[k] / x.numpy.median_actions_per_s).sort((a, b) => a - b);
      return { case: c.name, one_thread_actions_per_s: Math.round(median(rounds.map((x) => x.rates[k]))), over_numpy: median(ratios), ratios };
    }),
  };
}

const results = [];
for (const c of CASES) {
  const warm = await child('warm', [c.yaml, RUNS, ACTIONS]);
  const all = threadsAll > 1 ? await speedup(c) : null;
  results.push({
    case: c.name, runs: RUNS, actions_per_run: ACTIONS, one_thread_actions_per_s: Math.round(warm.rate),
    random_numbers_per_action: warm.drawsPerAction, rng_floor_ratio: warm.floorRatio,
    threads: threadsAll, ...(all && {
      speedup_actions: all.actions, speedup_rounds: ROUNDS, all_threads_actions_per_s: Math.round(all.rate), speedup: all.ratio, speedup_each_round: all.ratios,
      processes_speedup: all.ceiling, speedup_over_processes: all.ofCeiling, worker_chunk_share: all.workerShare,
    }),
    peak_rss_mb: Math.max(warm.peakRssMb, all?.peakRssMb ?? 0),
  });
}
/** One-thread rates of the incident cases in turns (each round in another order), and each case's median ratio to the first over the rounds. */
async function incidentCase() {
  const rates = INCIDENT_CASES.map(() => []);
  const ratios = INCIDENT_CASES.map(() => []);
  for (let round = 0; round < RUNS; round++) {
    const order = INCIDENT_CASES.map((_, k) => k);
    if (round % 2 === 1) order.reverse();
    const got = [];
    for (const k of order) got[k] = (await child('warm', [INCIDENT_CASES[k].yaml, 3, INCIDENT_ACTIONS])).rate;
    got.forEach((r, k) => { rates[k].push(r); ratios[k].push(r / got[0]); });
  }
  return {
    actions: INCIDENT_ACTIONS, rounds: RUNS,
    cases: INCIDENT_CASES.map((c, k) => ({ case: c.name, one_thread_actions_per_s: Math.round(median(rates[k])), over_no_incident: median(ratios[k]), ratios: ratios[k].sort((a, b) => a - b) })),
  };
}
const incidents = await incidentCase();

/** One-thread rates of the coupled cases in turns (each round in another order), each with its median ratio to the chunk engine's. */
async function coupledCase() {
  const rates = COUPLED_CASES.map(() => []);
  const ratios = COUPLED_CASES.map(() => []);
  let rss = 0;
  for (let round = 0; round < RUNS; round++) {
    const order = COUPLED_CASES.map((_, k) => k);
    if (round % 2 === 1) order.reverse();
    const got = [];
    for (const k of order) {
      const r = await child('rate', [COUPLED_CASES[k].yaml, 3, COUPLED_CASES[k].actions]);
      got[k] = r.rate;
      rss = Math.max(rss, r.peakRssMb);
    }
    got.forEach((r, k) => { rates[k].push(r); ratios[k].push(r / got[0]); });
  }
  return {
    rounds: RUNS, peak_rss_mb: rss,
    cases: COUPLED_CASES.map((c, k) => ({ case: c.name, actions: c.actions, one_thread_actions_per_s: Math.round(median(rates[k])), over_chunk_engine: median(ratios[k]), ratios: ratios[k].sort((a, b) => a - b) })),
  };
}
const coupled = await coupledCase();
const numpy = await numpyInTurns();
const billion = quick ? null : await child('cold', ['idempotency: {scope: intent}', BILLION, threadsAll, 'billion']);
const start = JSON.parse(execFileSync(process.execPath, [here('startup.js'), '--json'], { encoding: 'utf8' }));
const limits = JSON.parse(execFileSync(process.execPath, [here('limits.js'), '--json'], { encoding: 'utf8' }));
const report = {
  machine: { cores: threadsAll, cpu: os.cpus()[0]?.model ?? 'unknown', node: process.version },
  results,
  incidents,
  coupled,
  numpy: numpy && { ...numpy, idem_sim_intent_over_numpy: numpy.cases[1].over_numpy },
  peak_rss_mb: Math.max(...results.map((r) => r.peak_rss_mb)),
  billion: billion && { actions: BILLION, scope: 'intent', threads: threadsAll, seconds: billion.seconds, peak_rss_mb: billion.peakRssMb },
  startup: start,
  limits,
};

if (json) {
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
} else {
  const m = (x) => `${(x / 1e6).toFixed(2)} M/s`;
  const rows = results.map((r) => [r.case, m(r.one_thread_actions_per_s), r.random_numbers_per_action.toFixed(1), `${r.rng_floor_ratio.toFixed(2)}x`,
    ...(r.speedup ? [`${(r.speedup_actions / 1e6).toFixed(0)} M`, m(r.all_threads_actions_per_s), `${r.speedup.toFixed(2)}x`,
      `${r.speedup_each_round[0].toFixed(2)}-${r.speedup_each_round.at(-1).toFixed(2)}`, `${r.processes_speedup.toFixed(2)}x`] : ['-', '-', '-', '-', '-'])]);
  const head = ['case', '1 thread', 'draws/action', 'time / RNG floor', 'run', `${threadsAll} threads`, 'speed-up', 'range', `${threadsAll} processes`];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(line(head));
  for (const r of rows) console.log(line(r));
  if (numpy) {
    console.log(`numpy ${numpy.numpy}, blind retries only: ${m(numpy.median_actions_per_s)} (${numpy.duplicates_per_1000.toFixed(1)} duplicates/1000; rounds ${m(Math.min(...numpy.actions_per_s_each_round))}-${m(Math.max(...numpy.actions_per_s_each_round))}); idem-sim's full model, 1 thread, in turns with it${numpy.core === null ? '' : ` on core ${numpy.core}`} (x: the ${numpy.rounds} rounds' median ratio to numpy):`);
    for (const c of numpy.cases) console.log(`  ${c.case.padEnd(28)} ${m(c.one_thread_actions_per_s)}  ${c.over_numpy.toFixed(2)}x (rounds ${c.ratios[0].toFixed(2)}-${c.ratios.at(-1).toFixed(2)})`);
  } else {
    console.log('numpy baseline skipped: python3 with numpy not found');
  }
  console.log(`incidents, ${(incidents.actions / 1e6).toFixed(2)} M actions over an hour, 1 thread (x: the rounds' median ratio to no incident):`);
  for (const c of incidents.cases) console.log(`  ${c.case.padEnd(28)} ${m(c.one_thread_actions_per_s)}  ${c.over_no_incident.toFixed(3)}x (rounds ${c.ratios[0].toFixed(2)}-${c.ratios.at(-1).toFixed(2)})`);
  console.log(`capacity, 1 thread (x: the rounds' median ratio to the chunk engine; peak RSS ${coupled.peak_rss_mb} MB):`);
  for (const c of coupled.cases) console.log(`  ${c.case.padEnd(38)} ${m(c.one_thread_actions_per_s)}  ${c.over_chunk_engine.toFixed(3)}x (rounds ${c.ratios[0].toFixed(2)}-${c.ratios.at(-1).toFixed(2)})`);
  if (billion) console.log(`10^9 actions, scope intent, ${threadsAll} threads: ${billion.seconds.toFixed(1)} s, peak RSS ${billion.peakRssMb} MB`);
  console.log(`start-up, medians of ${start.runs}: ${start.cases.map((c) => `${c.command} ${c.median_s.toFixed(3)} s${c.command === 'node -e 0' ? '' : ` (${c.over_node.toFixed(2)}x)`}`).join(', ')}`);
  console.log(`code caches in run --actions 1000: ${Object.entries(start.code_caches).map(([file, use]) => `${file.replace(/-\w+\.cjs$/, '')} ${use}`).join(', ') || 'none: dist/ ran, not the bundle'}`);
  console.log(`limits the unit tests hold by counted work, timed here (medians of ${limits.runs}; the sweep table's 20,000 rows over 5,000: ${limits.table_rows_ratio.toFixed(2)}x, 4 when linear):`);
  for (const c of limits.cases) console.log(`  ${c.case.padEnd(42)} ${c.ms.toFixed(1).padStart(8)} ms`);
  console.log(`peak RSS ${report.peak_rss_mb} MB; ${report.machine.cores} cores, ${report.machine.cpu}, Node ${report.machine.node}; medians of ${RUNS}; speed-ups: medians of ${ROUNDS} rounds' own ratios, each run a cold process`);
}
