/**
 * The command-line side of docs/model.md's "Time": `--series STEP`, and a run's series and
 * alerts as reporters receive them.
 */
import { evaluateAlerts } from '../../model/alerts.js';
import { arrivalSpan } from '../../model/clock.js';
import { MAX_SERIES_BUCKETS } from '../../model/limits.js';
import type { RunState } from '../../model/metrics.js';
import { longestDelay } from '../../model/simulate.js';
import type { WrittenScenario } from '../../model/types.js';
import { DURATION_PATTERN, formatDuration, isBareDuration, bareDurationFix, parseDuration } from '../../scenario/duration.js';
import { InputError } from '../../scenario/errors.js';
import type { ScenarioRun } from '../report/types.js';

/** `--series STEP`: a duration above 0 with its unit (undefined: no series asked for). */
export function seriesOption(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const source = { source: `--series ${text}` };
  if (isBareDuration(text)) throw new InputError(source, '', `"${text}" has no unit`, bareDurationFix(text));
  const step = new RegExp(DURATION_PATTERN).test(text) ? parseDuration(text) : NaN;
  if (!(step > 0)) throw new InputError(source, '', `expected a duration above 0 with its unit, got "${String(text).slice(0, 40)}"`, 'Give the series\' bucket as a duration such as 1m, 10s or 5m.');
  return step;
}

/**
 * Refuses a step that could need more buckets than a series may hold: the scenario's arrivals
 * and the longest an action's calls can go on after its arrival, over the step.
 */
export function checkSeriesLength(step: number, scenario: WrittenScenario, source: string): void {
  const most = (arrivalSpan(scenario) + longestDelay(scenario)) / step;
  if (most > MAX_SERIES_BUCKETS) {
    // Rounded up to a whole second (to a whole ms below one).
    const exact = (arrivalSpan(scenario) + longestDelay(scenario)) / MAX_SERIES_BUCKETS;
    const least = exact < 1000 ? Math.ceil(exact) : Math.ceil(exact / 1000) * 1000;
    throw new InputError({ source }, '', `could need up to ${Math.ceil(most).toLocaleString('en-US')} buckets for this scenario (its arrivals and the longest its retries, re-plans and replays can go on), more than the ${MAX_SERIES_BUCKETS.toLocaleString('en-US')} a series may hold`,
      `Give --series a step of at least ${formatDuration(least)}, or simulate fewer actions.`);
  }
}

/** What a run adds to its report from its series: the series if asked for (`shown`), and its alerts. */
export function timeResults(scenario: WrittenScenario, state: RunState, shown: boolean): Pick<ScenarioRun, 'series' | 'alerts'> {
  const series = state.series();
  if (!series) return {};
  return {
    ...(shown ? { series } : {}),
    ...(scenario.alerts.length > 0 ? { alerts: evaluateAlerts(series, scenario.alerts, scenario.incidents) } : {}),
  };
}

/** Only the alerts of `timeResults` (a sweep's points carry no series). */
export function alertsOnly(t: Pick<ScenarioRun, 'series' | 'alerts'>): Pick<ScenarioRun, 'alerts'> {
  return t.alerts ? { alerts: t.alerts } : {};
}
