/** Settings of docs/model.md's "Capacity" that have no effect under the scenario's others, as warnings. */
import type { WrittenScenario } from '../model/types.js';
import { COMFORTABLE, NEAR_CAPACITY, offeredUtilisation, workersFor } from '../model/offered.js';
import { MAX_WORKERS } from '../model/limits.js';
import { formatPath } from './document.js';
import { formatDuration } from './duration.js';
import type { Origin } from './errors.js';
import type { ScenarioWarning } from './warnings.js';

type Path = readonly (string | number)[];
type Locate = (p: Path, keyNode?: boolean) => Origin;

/** Warnings on the capacity keys a scenario sets (each is `none` or off unless written). */
export function capacityWarnings(s: WrittenScenario, locate: Locate): ScenarioWarning[] {
  const out: ScenarioWarning[] = [];
  const warn = (path: Path, problem: string, fix: string): void => {
    out.push({ origin: locate(path, true), keyPath: formatPath(path), problem, fix });
  };
  const capacity = s.service.capacity;
  const near = nearCapacity(s);
  if (near !== null) warn(['service', 'capacity', 'workers'], near.problem, near.fix);
  if (capacity?.queue === null && capacity.retry_after !== null) {
    warn(['service', 'capacity', 'retry_after'], 'has no effect: service.capacity.queue is unbounded, so no request is shed and no 503 asks the client to wait',
      'Give the queue a bound (such as queue: 100), or remove it.');
  }
  if (capacity?.queue === 0) {
    const why = 'service.capacity.queue is 0: no request waits for a worker (one that finds every worker busy is shed)';
    if (capacity.drop_expired) warn(['service', 'capacity', 'drop_expired'], `has no effect: ${why}, so none expires waiting`, 'Give the queue room (such as queue: 100), or remove it.');
    if (capacity.order !== 'fifo') warn(['service', 'capacity', 'order'], `has no effect: ${why}, so a worker never chooses among waiting requests`, 'Give the queue room (such as queue: 100), or remove it.');
  }
  s.incidents.forEach((w, i) => {
    const workers = w.service.capacity.workers;
    const overlapped = s.incidents.some((o, j) => j !== i && o.service.capacity.workers !== null && o.from < w.to && w.from < o.to);
    if (capacity !== null && workers === capacity.workers && !overlapped) {
      warn(['incidents', i, 'service', 'capacity', 'workers'], `has no effect: it is service.capacity.workers (${workers}), the count in force without the window`,
        'Give the window the count of workers left in it (0 for a pause), or remove it.');
    }
  });
  if (s.client.retry_budget !== null && s.client.retries === 0) {
    warn(['client', 'retry_budget'], 'has no effect: client.retries is 0, so no call makes a second attempt and no token is taken', 'Allow retries (client.retries), or remove it.');
  }
  if (s.client.retry_throttle !== null && s.client.retries === 0) {
    warn(['client', 'retry_throttle'], 'has no effect: client.retries is 0, so no call makes a second attempt for the throttle to stop', 'Allow retries (client.retries), or remove it.');
  }
  const reach = breakerReach(s);
  if (reach !== null && s.client.breaker !== null && reach < s.client.breaker.min_calls) {
    warn(['client', 'breaker', 'min_calls'], `leaves the breaker closed: even at the scenario's highest rate, with every retry, twin, re-plan and replay, about ${reach < 10 ? reach.toPrecision(2) : Math.round(reach)} attempts are sent in a window of ${formatDuration(s.client.breaker.window)} on average, fewer than min_calls (${s.client.breaker.min_calls})`,
      'Lower min_calls or lengthen the window, or remove the breaker.');
  }
  return out;
}

/**
 * A service near its capacity (docs/model.md, "Saturation"): the scenario's first attempts alone
 * keep NEAR_CAPACITY or more of the workers busy at its highest rate, so a slow spell or a few
 * retries tip it into a storm. The fix names the workers for COMFORTABLE (or says they are beyond
 * MAX_WORKERS), which keep normal load from capacity, and the guards that stop a storm an incident
 * starts, which workers do not. Null below, or where the latency's mean needs a file not read yet
 * (the command warns once it is read: nearCapacityAfterData).
 */
export function nearCapacity(s: WrittenScenario): { problem: string; fix: string } | null {
  const offered = offeredUtilisation(s);
  const workers = s.service.capacity?.workers;
  if (offered === null || workers === undefined || offered.peak_offered_utilisation < NEAR_CAPACITY) return null;
  const peak = offered.peak_offered_utilisation;
  const at = s.load.profile.length > 0 ? 'at the highest rate of load.profile' : 'at load.rate_per_s';
  const needed = workersFor(s, peak);
  const more = needed > MAX_WORKERS
    ? `The workers for peak_offered_utilisation ${COMFORTABLE} would be more than ${MAX_WORKERS.toLocaleString('en-US')}, beyond the model's limit of workers: lower the rate or the service time`
    : `Give it ${needed} workers (peak_offered_utilisation ${COMFORTABLE}), or lower the rate, to keep normal load away from capacity`;
  return {
    problem: `is near capacity: first attempts alone keep ${percent(peak)} of the ${workers} workers busy ${at} (peak_offered_utilisation ${peak.toFixed(2)}, warned of from ${NEAR_CAPACITY}), and retries, re-plans and replays come on top of that, so a short slowdown or pause can start a retry storm that outlives it`,
    fix: `${more}. More workers do not stop a storm that an incident starts; the guards do: a bounded queue (service.capacity.queue), service.capacity.drop_expired, a retry budget (client.retry_budget), retry throttling (client.retry_throttle) or a breaker (client.breaker); docs/capacity.md, "Near capacity".`,
  };
}

/**
 * The near-capacity warning of a scenario whose latency a file holds (empirical, a histogram
 * file), given once the command has read the data (`loaded`): the written scenario could not
 * have it. None where the written one could (capacityWarnings gave it).
 */
export function nearCapacityAfterData(written: WrittenScenario, loaded: WrittenScenario, locate?: Locate): ScenarioWarning[] {
  if (offeredUtilisation(written) !== null) return [];
  const near = nearCapacity(loaded);
  if (near === null) return [];
  const path = ['service', 'capacity', 'workers'];
  return [{ ...(locate ? { origin: locate(path, true) } : {}), keyPath: formatPath(path), ...near }];
}

const percent = (x: number): string => `${(x * 100).toFixed(0)}%`;

/**
 * The most attempts a breaker's window holds on average: the highest arrival rate times every
 * attempt a primary can bring (its twin, its retries, its re-plans and replays, each at most
 * its count), times the window. Null without a breaker.
 */
function breakerReach(s: WrittenScenario): number | null {
  const b = s.client.breaker;
  if (b === null) return null;
  const profile = s.load.profile;
  const rates = [...(profile.length === 0 || (profile[0]?.at ?? 0) > 0 ? [s.load.rate_per_s] : []), ...profile.map((e) => e.rate_per_s)];
  const replans = s.agent.replan_probability > 0 ? s.agent.max_replans : 0;
  const crashes = s.runtime.crash_probability > 0 || s.incidents.some((w) => (w.runtime.crash_probability ?? 0) > 0);
  const replays = crashes ? s.runtime.max_replays : 0;
  const attempts = (1 + s.workload.twin_probability) * (s.client.retries + 1) * (1 + replans) * (1 + replays);
  return Math.max(...rates) * attempts * (b.window / 1000);
}
