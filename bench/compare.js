#!/usr/bin/env node
// Benchmark (not a test): one-thread throughput of two builds of idem-sim, measured in turns in
// one session, for a change that touches the engine ("before and after").
//
//   node bench/compare.js BEFORE_ROOT [AFTER_ROOT]   (each a built checkout; AFTER: this one)
//
// Each round runs bench/case.js's warm measurement (3 runs of ACTIONS after a warm-up, median)
// of every case in each build, in a process of its own, the order of the builds alternating;
// it prints the median rate of each build over ROUNDS rounds and the median of the rounds' own
// after/before ratios, since this shared machine's speed drifts within a minute. Every process
// runs on one core (bench/pin.js), where `taskset` is.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exec, PIN } from './pin.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ACTIONS = Number(process.env.BENCH_ACTIONS ?? 4_000_000);
// A coupled case is measured without the RNG floor (case.js's `rate`: its draws cannot be counted).
// BENCH_ONLY=coupled (a part of the names) measures only the cases it names.
const CASES = [
  { name: 'lab defaults, scope none', yaml: '' },
  { name: 'lab defaults, scope intent', yaml: 'idempotency: {scope: intent}' },
  { name: 'mission 2 (slow downstream)', yaml: 'service: {latency: {median: 1200ms}}\nclient: {timeout: 600ms}\nidempotency: {scope: call}', scale: 0.25 },
  { name: 'coupled: lab defaults on 26 workers (69%)', yaml: 'service: {capacity: {workers: 26}}', mode: 'rate', scale: 0.1 },
  { name: 'coupled: capacity-storm.yaml (a pause, a storm)', yaml: 'actions: 90000\nservice: {capacity: {workers: 26}}\nclient: {timeout: 1s, retries: 3}\nincidents:\n  - {name: pause, from: 10m, to: 630s, service: {capacity: {workers: 0}}}', mode: 'rate', scale: 0.0225 },
].filter((c) => c.name.includes(process.env.BENCH_ONLY ?? ''));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const [before, after = fileURLToPath(new URL('..', import.meta.url))] = process.argv.slice(2).map((p) => resolve(p));
if (!before) {
  process.stderr.write('usage: node bench/compare.js BEFORE_ROOT [AFTER_ROOT]\n');
  process.exit(2);
}

async function rate(root, c) {
  const actions = Math.round(ACTIONS * (c.scale ?? 1));
  return JSON.parse(await exec(process.execPath, [resolve(root, 'bench/case.js'), c.mode ?? 'warm', JSON.stringify([c.yaml, 3, actions])], true)).rate;
}

const results = CASES.map(() => ({ before: [], after: [], ratios: [] }));
for (let round = 0; round < ROUNDS; round++) {
  for (const [i, c] of CASES.entries()) {
    const order = round % 2 === 0 ? ['before', 'after'] : ['after', 'before'];
    const got = {};
    for (const which of order) got[which] = await rate(which === 'before' ? before : after, c);
    results[i].before.push(got.before);
    results[i].after.push(got.after);
    results[i].ratios.push(got.after / got.before);
  }
  process.stderr.write(`round ${round + 1}/${ROUNDS}\n`);
}
const m = (x) => (x / 1e6).toFixed(2);
if (PIN !== null) process.stdout.write(`every run on core ${PIN}\n`);
for (const [i, c] of CASES.entries()) {
  const r = results[i];
  process.stdout.write(`${c.name}: before ${m(median(r.before))} M/s, after ${m(median(r.after))} M/s, after/before ${median(r.ratios).toFixed(3)} (rounds ${Math.min(...r.ratios).toFixed(3)}-${Math.max(...r.ratios).toFixed(3)})\n`);
}
