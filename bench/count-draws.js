// Counts the random numbers one run consumes (run as a child of bench.js, so that the
// counting generator does not slow the timed code in the parent).
import { ChunkSimulator } from '../dist/engine/engine.js';
import { planChunks } from '../dist/engine/plan.js';
import { Rng, chunkRng } from '../dist/random/rng.js';
import { parseScenario } from '../dist/scenario/parse.js';

/**
 * Counts the stream's numbers as the position in it: a draw moves it on one, a block of them
 * (`fillUnits`) as many, and a rewind (`restore`, the retry path's and the counting loop's) back to
 * where its `save` was, so numbers drawn again after a rewind are counted once.
 */
class CountingRng extends Rng {
  draws = 0;
  saved = new WeakMap();
  int32() { this.draws++; return super.int32(); }
  fillUnits(into, from, to) { this.draws += Math.max(0, to - from); super.fillUnits(into, from, to); }
  save(into) { this.saved.set(into, this.draws); super.save(into); }
  restore(from) { this.draws = this.saved.get(from); super.restore(from); }
}

const [yaml, actions, seed] = JSON.parse(process.argv[2]);
const { scenario } = parseScenario(yaml, 'bench');
const sim = new ChunkSimulator(scenario, 100); // the fast path draws what the general model draws (test/fast-path.test.ts)
let draws = 0, handlerRuns = 0, primaries = 0;
for (const plan of planChunks(seed, actions, scenario.load.rate_per_s)) {
  const source = chunkRng(seed, plan.index);
  const rng = Object.setPrototypeOf(source, CountingRng.prototype);
  rng.draws = 0;
  rng.saved = new WeakMap();
  const out = sim.run(rng, plan);
  draws += rng.draws;
  handlerRuns += out.handlerRuns;
  primaries += out.primaries;
}
process.stdout.write(JSON.stringify({ draws, handlerRuns, primaries }));
