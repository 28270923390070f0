// One measurement of the benchmark, in a process of its own (run by bench.js), so that it
// starts from a fresh JIT as `idem-sim run` does (code shaped by one scenario runs another
// slower). Prints JSON.
//
//   node case.js cold '[yaml, actions, threads, seed]'   one run, timed from a cold start
//   node case.js warm '[yaml, runs, actions]'            after a warm-up, `runs` one-thread
//                                                        runs, each followed by its RNG floor
//   node case.js rate '[yaml, runs, actions]'            the same without the floor (a coupled
//                                                        run, whose draws count-draws.js cannot count)
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runScenario } from '../dist/exec/runner.js';
import { standardExponential } from '../dist/random/exponential.js';
import { compile } from '../dist/engine/compile.js';
import { chunkRng } from '../dist/random/rng.js';
import { parseScenario } from '../dist/scenario/parse.js';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const seconds = (t0) => Number(process.hrtime.bigint() - t0) / 1e9;
const here = (f) => fileURLToPath(new URL(f, import.meta.url));
const peakRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);

async function timed(scenario, actions, threads, seed) {
  const t0 = process.hrtime.bigint();
  const outcome = await runScenario({ scenario: { ...scenario, actions }, seed, threads });
  return { seconds: seconds(t0), chunks: outcome.chunksPerThread };
}

/**
 * A timer of the RNG floor: seconds to draw what one run drew, as the engine draws it (A
 * exponential gaps; H latencies, each from a uniform through the latency's split at the timeout,
 * engine/draws.ts; the rest as uniforms).
 */
function floorTimer(scenario, counts) {
  const rng = chunkRng('floor', 0);
  const { cut } = compile(scenario);
  const uniforms = Math.max(0, counts.draws - counts.primaries - counts.handlerRuns);
  return () => {
    let sink = 0;
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < counts.primaries; i++) sink += standardExponential(rng);
    for (let i = 0; i < counts.handlerRuns; i++) {
      const u = rng.next();
      sink += u < cut.pBelow ? cut.below(u / cut.pBelow) : cut.above((u - cut.pBelow) / cut.pAbove);
    }
    for (let i = 0; i < uniforms; i++) sink += rng.next();
    const s = seconds(t0);
    if (sink === -1) console.log(sink); // keep the loops
    return s;
  };
}

const [mode, args] = [process.argv[2], JSON.parse(process.argv[3])];
if (mode === 'rate') {
  const [yaml, runs, actions] = args;
  const { scenario } = parseScenario(yaml, 'bench');
  await timed(scenario, actions, 1, 'warm-up');
  const rates = [];
  for (let r = 0; r < runs; r++) rates.push(actions / (await timed(scenario, actions, 1, String(r))).seconds);
  process.stdout.write(JSON.stringify({ rate: median(rates), peakRssMb: peakRssMb() }));
} else if (mode === 'cold') {
  const [yaml, actions, threads, seed] = args;
  const run = await timed(parseScenario(yaml, 'bench').scenario, actions, threads, seed);
  process.stdout.write(JSON.stringify({ ...run, peakRssMb: peakRssMb() }));
} else {
  const [yaml, runs, actions] = args;
  const { scenario } = parseScenario(yaml, 'bench');
  const counts = JSON.parse(execFileSync(process.execPath, [here('count-draws.js'), JSON.stringify([yaml, actions, '0'])], { encoding: 'utf8' }));
  const floor = floorTimer(scenario, counts);
  await timed(scenario, actions, 1, 'warm-up');
  floor();
  const rates = [];
  const floorRatios = [];
  for (let r = 0; r < runs; r++) {
    const run = await timed(scenario, actions, 1, String(r));
    rates.push(actions / run.seconds);
    floorRatios.push(run.seconds / floor()); // the floor right after its run: the machine's speed drifts
  }
  process.stdout.write(JSON.stringify({
    rate: median(rates), floorRatio: median(floorRatios), drawsPerAction: counts.draws / counts.primaries, peakRssMb: peakRssMb(),
  }));
}
