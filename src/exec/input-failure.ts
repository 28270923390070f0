/**
 * Failures that are the input's, found only while running: the run asked for more memory than the
 * process can have, a coupled run more work in flight than it may hold, a chunk more attempts than
 * it may make (engine/runaway.ts), or an event fell later than its series can reach. `cli/main.ts`
 * reports them as bad input (exit 2) rather than as a bug.
 */
import { RUNAWAY_WORK } from '../engine/runaway.js';
import { GRID_PAST } from '../engine/peak.js';
import { IN_FLIGHT_OVERFLOW, inFlightFix } from '../engine/coupled/in-flight.js';
import { SERIES_OVERFLOW } from '../engine/series-tally.js';
import { printable } from '../scenario/printable.js';
import { runAt } from './side-by-side.js';

/** The one-paragraph message of such a failure, or undefined for any other error; a failure of one of the command's runs (a sweep's point) names it. */
export function inputFailure(e: unknown): string | undefined {
  const text = failureText(e);
  const at = runAt(e);
  return text === undefined || at === undefined ? text : `at ${printable(at)}, ${text}`;
}

function failureText(e: unknown): string | undefined {
  if (e instanceof RangeError && /allocation|Array buffer|Invalid (typed )?array length|Invalid string length/i.test(e.message)) {
    return `the run needs more memory than it can allocate (${e.message}). Make the scenario or the options smaller (actions, grid points, rows); see docs/security-and-limits.md.`;
  }
  if (e instanceof Error && e.message.startsWith(SERIES_OVERFLOW)) {
    // An event later than any bound known before the run (a latency's tail is unbounded).
    return `${printable(e.message)}. Some event of the run came later than the series can reach (a long latency tail, a large latency_multiplier or conflict_retry_after, a trigger's redeliveries). Give --series a larger step (alerts are judged on it), or shorten the scenario's latencies.`;
  }
  if (e instanceof Error && (e.message.startsWith(RUNAWAY_WORK) || e.message.startsWith(GRID_PAST))) return printable(e.message); // engine/runaway.ts, engine/peak.ts
  if (e instanceof Error && e.message.startsWith(IN_FLIGHT_OVERFLOW)) {
    return `${printable(e.message)}. ${inFlightFix(e.message)}; see docs/security-and-limits.md.`;
  }
  return undefined;
}
