// Counts the random numbers one run consumes (run as a child of bench.js, so that the
// counting generator does not slow the timed code in the parent).
import { ChunkSimulator } from '../dist/engine/engine.js';
import { planChunks } from '../dist/engine/plan.js';
import { Rng, chunkRng } from '../dist/random/rng.js';
import { parseScenario } from '../dist/scenario/parse.js';

class CountingRng extends Rng {
  draws = 0;
  int32() { this.draws++; return super.int32(); }
}

const [yaml, actions, seed] = JSON.parse(process.argv[2]);
const { scenario } = parseScenario(yaml, 'bench');
const sim = new ChunkSimulator(scenario, 100); // the fast path draws what the general model draws (test/fast-path.test.ts)
let draws = 0, handlerRuns = 0, primaries = 0;
for (const plan of planChunks(seed, actions, scenario.load.rate_per_s)) {
  const source = chunkRng(seed, plan.index);
  const rng = Object.setPrototypeOf(source, CountingRng.prototype);
  rng.draws = 0;
  const out = sim.run(rng, plan);
  draws += rng.draws;
  handlerRuns += out.handlerRuns;
  primaries += out.primaries;
}
process.stdout.write(JSON.stringify({ draws, handlerRuns, primaries }));
