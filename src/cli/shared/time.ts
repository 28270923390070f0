/**
 * The command-line side of docs/model.md's "Time": what a run's series and arrivals must pass
 * before it starts (`--series STEP` itself: scenario/series-option.ts).
 */
import { seriesStepOf } from '../../results/alerts.js';
import { arrivalSpan } from '../../model/clock.js';
import { checkArrivals } from '../../scenario/time-checks.js';
import { MAX_SERIES_BUCKETS } from '../../model/limits.js';
import { longestDelay } from '../../engine/grid.js';
import type { WrittenScenario } from '../../model/types.js';
import { formatDuration } from '../../scenario/duration.js';
import { InputError, type Origin } from '../../scenario/errors.js';
import type { RunOutcome, RunRequest } from '../../exec/runner.js';
import { warn, type Io } from '../../io/streams.js';
import type { SeriesCounts } from '../../model/series.js';

/** Where a key path of the scenario was written (ParsedScenario's locate). */
type Locate = (path: readonly (string | number)[]) => Origin;

/**
 * Refuses a step that could need more buckets than a series may hold: the scenario's arrivals
 * and the longest an action's calls can go on after its arrival, over the step. A queue
 * (`service.capacity`) may serve its backlog for longer, which only the run can tell: a coupled
 * run that outlasts its series counts them in a longer step (series-tally.ts), and
 * `warnCoarsened` says so.
 */
export function checkSeriesLength(step: number, scenario: WrittenScenario, source: string): void {
  const reach = arrivalSpan(scenario) + longestDelay(scenario); // a redelivered run's calls within it (engine/grid.ts)
  const most = reach / step;
  if (most > MAX_SERIES_BUCKETS) {
    // Rounded up to a whole second (to a whole ms below one).
    const exact = reach / MAX_SERIES_BUCKETS;
    const least = exact < 1000 ? Math.ceil(exact) : Math.ceil(exact / 1000) * 1000;
    const backlog = scenario.service.capacity !== null
      ? '; its queue may go on serving a backlog after the last call, and a run that outlasts its series then counts them in a longer step' : '';
    throw new InputError({ source }, '', `could need up to ${Math.ceil(most).toLocaleString('en-US')} buckets for this scenario (its arrivals and the longest its retries, re-plans, replays and redeliveries can go on), more than the ${MAX_SERIES_BUCKETS.toLocaleString('en-US')} a series may hold`,
      `Give --series a step of at least ${formatDuration(least)}, or simulate fewer actions${backlog}.`);
  }
}

/**
 * Warns when a coupled run's queue served its backlog past the buckets of the step asked for:
 * the engine then counted the series in a longer step (twice the step, as often as it took:
 * series-tally.ts), which its numbers over time and its alerts are judged on. The run is the same
 * whatever the step, so they are what that step gives. Returns the request.
 */
export function warnCoarsened<R extends Pick<RunRequest, 'scenario' | 'seriesStep'>>(io: Io, name: string, req: R, outcome: RunOutcome): R {
  const asked = seriesStepOf(req.scenario, req.seriesStep);
  const series = outcome.state.series();
  if (asked === null || series === null || series.step === asked) return req;
  const source = req.seriesStep !== undefined ? `--series ${formatDuration(asked)}` : 'the alerts\' 1-minute buckets';
  warn(io, `${name}: ${outlasted(asked, series)} (${source}), so the series were counted in buckets of ${formatDuration(series.step)}, and the readings over time and the alerts are those of --series ${formatDuration(series.step)} (the run is the same whatever the step). Give --series ${formatDuration(series.step)} to ask for that step, or simulate fewer actions.`);
  return req;
}

/** How a run's backlog outlasted the buckets of the step `asked`, its series now in `series.step`. */
const outlasted = (asked: number, series: SeriesCounts): string =>
  `the queue served its backlog until minute ${(series.buckets * series.step / 60_000).toFixed(1)}, past the ${MAX_SERIES_BUCKETS.toLocaleString('en-US')} buckets of ${formatDuration(asked)} a series may hold`;

/** The refusal where a series in a longer step than asked cannot serve (a promtool test, whose rules were made for the step asked). */
export function coarsenedRefusal(file: string, name: string, asked: number, series: SeriesCounts): InputError {
  return new InputError({ source: file }, '', `${name}: ${outlasted(asked, series)}, so the run counted its series in buckets of ${formatDuration(series.step)}, and a test's rules and series must share one step`,
    `Give --series ${formatDuration(series.step)} (the run is the same whatever the step), or simulate fewer actions.`);
}

/**
 * What a run of `scenario` asks of time, checked before it starts: `--precision` does not
 * combine with `load.duration` (a duration fixes how many actions arrive; a precision run would
 * squeeze more into its first minutes), and the series the run counts (`--series`, or one
 * minute for alerts) must fit its buckets, up to `--max-actions` for a precision run.
 */
export function checkTimeRun(req: Pick<RunRequest, 'scenario' | 'seed' | 'seriesStep' | 'precision'> & { locate?: Locate | undefined }, seriesText?: string): void {
  const { scenario, precision } = req;
  checkArrivals(scenario, req.seed, req.locate);
  if (precision && scenario.load.duration !== null) {
    throw new InputError({ source: '--precision' }, 'load.duration', 'cannot be combined with load.duration: the duration sets how many actions arrive, and a precision run would add more within the same time',
      'Drop --precision (a longer load.duration narrows the intervals), or give the scenario actions instead of load.duration.');
  }
  const step = seriesStepOf(scenario, req.seriesStep);
  if (step === null) return;
  const longest = precision ? { ...scenario, actions: precision.maxActions } : scenario;
  checkSeriesLength(step, longest, req.seriesStep !== undefined ? `--series ${seriesText ?? formatDuration(step)}`
    : scenario.alerts.length > 0 ? 'alerts: (judged on 1-minute buckets without --series)' : 'incidents: (their quiet time measured on 1-minute buckets without --series)');
}
