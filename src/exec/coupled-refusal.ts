/**
 * What a coupled run (docs/model.md, "Capacity") cannot do: every action shares the workers, the
 * queue, the retry budget and the breaker with every other, so the run is one simulation in time
 * order. It cannot be cut into shards, nor stopped at a precision target (its actions are not
 * independent, so the per-action interval does not bound the run's error).
 */
import { couplingKeysSet, type CouplingKey } from '../model/capacity.js';
import { InputError, type Origin } from '../scenario/errors.js';
import type { RunRequest } from './runner.js';

/** Where a key path of the scenario was written (ParsedScenario's locate). */
type Locate = (path: readonly (string | number)[]) => Origin;

/** What every action shares with every other under each coupling key. */
const SHARED: Record<CouplingKey, string[]> = {
  'service.capacity': ['the workers', 'the queue'], 'client.retry_budget': ['the retry budget'], 'client.breaker': ['the breaker'],
  'client.retry_throttle': ['the retry throttle\'s counter'],
};

const inWords = (items: readonly string[]) => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);

/**
 * Throws the refusal of --shard (more than one) and --precision for a coupled run, naming the
 * first coupling key where `locate` says it was written; does nothing for any other run.
 */
export function refuseSplit(req: Pick<RunRequest, 'scenario' | 'shard' | 'precision'>, locate?: Locate): void {
  const keys = couplingKeysSet(req.scenario);
  const first = keys[0];
  if (first === undefined) return;
  const origin = locate?.(first.split('.'));
  const set = `with ${inWords(keys)} set`;
  const shared = inWords(keys.flatMap((k) => SHARED[k]));
  if (req.shard && req.shard.count > 1) {
    const option = `--shard ${req.shard.index}/${req.shard.count}`;
    throw new InputError(origin, first, `${set}, the run is one simulation in time order (every action shares ${shared} with every other), which ${option} cannot split`,
      'Run it whole, without --shard: several scenarios, or a sweep\'s points, still run side by side on --threads, and sweep --shard splits a sweep by its points.');
  }
  if (req.precision) {
    throw new InputError(origin, first, `${set}, the run's actions share ${shared}, so the per-action interval --precision watches does not bound the error of the whole run`,
      'Run a fixed number of actions, without --precision (more --actions, or a longer load.duration, narrow the intervals).');
  }
}
