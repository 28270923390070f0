#!/usr/bin/env node
// Benchmark (not a test): simulated actions per second, median of 5 runs, on one thread.
// Run with `npm run bench` after `npm run build`. Prints a table on stderr and JSON on stdout.
import os from 'node:os';
import { simulate } from '../dist/model/simulate.js';
import { parseScenario } from '../dist/scenario/parse.js';

const RUNS = 5;
const ACTIONS = Number(process.env.BENCH_ACTIONS ?? 1_000_000);
const CASES = [
  ['lab defaults, scope none', ''],
  ['lab defaults, scope intent', 'idempotency: {scope: intent}'],
  ['mission 2 (slow downstream)', 'service: {latency: {median: 1200ms}}\nclient: {timeout: 600ms}\nidempotency: {scope: call}'],
];

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = [];
for (const [name, yaml] of CASES) {
  const { scenario } = parseScenario(yaml, name);
  simulate({ ...scenario, actions: 50_000 }, 'warm-up');
  const rates = [];
  for (let r = 0; r < RUNS; r++) {
    const t0 = process.hrtime.bigint();
    simulate({ ...scenario, actions: ACTIONS }, String(r));
    rates.push(ACTIONS / (Number(process.hrtime.bigint() - t0) / 1e9));
  }
  results.push({ case: name, actions: ACTIONS, runs: RUNS, median_actions_per_s: Math.round(median(rates)), min: Math.round(Math.min(...rates)), max: Math.round(Math.max(...rates)) });
  process.stderr.write(`${name.padEnd(32)} ${(median(rates) / 1e6).toFixed(2)} M actions/s (min ${(Math.min(...rates) / 1e6).toFixed(2)}, max ${(Math.max(...rates) / 1e6).toFixed(2)})\n`);
}
const machine = { cpus: os.cpus().length, cpu: os.cpus()[0]?.model ?? 'unknown', node: process.version };
process.stderr.write(`machine: ${machine.cpus} cores, ${machine.cpu}, Node ${machine.node}\n`);
process.stdout.write(`${JSON.stringify({ machine, results }, null, 2)}\n`);
