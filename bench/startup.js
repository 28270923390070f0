#!/usr/bin/env node
// Start-up (part of `npm run bench`; also run alone after a build: `node bench/startup.js`, with
// `--json` for JSON): the wall time of idem-sim commands that do little, each in a fresh process
// with its output discarded, beside `node -e 0` (Node's own start) and beside loading run's code
// and running none of it (the floor that trimming what `run` does cannot go below). Medians of STARTS rounds,
// each round one of every command in turn, and each command's median over node -e 0's. Then what
// became of the bundle's code caches in `run --actions 1000` (scripts/bundle-loader.cjs): a cache
// made by another Node, or a bundle older than dist/ (bin/idem-sim.js then runs dist/), shows here.
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const STARTS = 21;
const BIN = fileURLToPath(new URL('../bin/idem-sim.js', import.meta.url));
const LAUNCHER = fileURLToPath(new URL('../dist/bundle/idem-sim.cjs', import.meta.url));
const CASES = [
  { command: 'node -e 0', args: ['-e', '0'] },
  // What loading alone costs, running nothing: the launcher, main's file and run's, with their code caches.
  { command: "load run's code only", args: ['-e', `const l = require(${JSON.stringify(LAUNCHER)}); l.loadMain(); l.load('cli/run');`] },
  { command: 'idem-sim --version', args: [BIN, '--version'] },
  { command: 'idem-sim run', args: [BIN, 'run'] }, // the built-in defaults: 4,000 actions, no YAML read
  { command: 'idem-sim run --actions 1000', args: [BIN, 'run', '--actions', '1000'] }, // a key set: parsed and validated
];

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const wall = (args) => {
  const t0 = process.hrtime.bigint();
  execFileSync(process.execPath, args, { stdio: 'ignore' });
  return Number(process.hrtime.bigint() - t0) / 1e9;
};

/** Each loaded bundle file's code cache in `run --actions 1000`: used, no cache, refused and why; {} when dist/ ran. */
function codeCaches() {
  const code = `const launcher = require(${JSON.stringify(LAUNCHER)});
process.on('exit', () => process.stderr.write('\\ncode caches: ' + JSON.stringify(launcher.codeCacheUse()) + '\\n'));
process.argv = [process.argv[0], ${JSON.stringify(BIN)}, 'run', '--actions', '1000'];
require(${JSON.stringify(BIN)});`;
  const r = spawnSync(process.execPath, ['-e', code], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const line = /^code caches: (.*)$/m.exec(r.stderr);
  return line ? JSON.parse(line[1]) : { error: r.stderr.trim() };
}

const times = CASES.map(() => []);
for (let round = 0; round < STARTS; round++) CASES.forEach((c, k) => times[k].push(wall(c.args)));
const node = median(times[0]);
const report = {
  runs: STARTS,
  cases: CASES.map((c, k) => ({
    command: c.command, median_s: median(times[k]), range_s: [Math.min(...times[k]), Math.max(...times[k])], over_node: median(times[k]) / node,
  })),
  code_caches: codeCaches(),
};

if (process.argv.includes('--json')) {
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
} else {
  const width = Math.max(...CASES.map((c) => c.command.length));
  console.log(`start-up, medians of ${STARTS} (each over node -e 0):`);
  for (const c of report.cases) console.log(`  ${c.command.padEnd(width)}  ${c.median_s.toFixed(3)} s  ${c.over_node.toFixed(2)}x  (range ${c.range_s.map((x) => x.toFixed(3)).join('-')})`);
  console.log(`code caches in run --actions 1000: ${Object.entries(report.code_caches).map(([file, use]) => `${file.replace(/-\w+\.cjs$/, '')} ${use}`).join(', ') || 'none: dist/ ran, not the bundle'}`);
}
