/**
 * The action timeline's rows of `idem-sim report`: a chunk of the run simulated again, traced
 * (same stream, same plan), so its actions are the run's own, without slowing the run's hot loop
 * with recording. The run's first chunk; with --at the chunk holding that time, and of it the
 * actions arriving nearest it.
 */
import { runPlans } from '../engine/plan.js';
import { traceActions } from '../engine/trace.js';
import type { Scenario } from '../model/types.js';
import { InputError } from '../scenario/errors.js';
import type { Taken } from '../scenario/taken.js';
import { duration, num } from './format.js';
import { FIRST_CHUNK, type SampleScope } from './report-page.js';
import { focusWords, nearestActions, numberedInRun, type Focus } from './time-focus.js';
import { clock, DEFAULT_LIMITS, runsWords, sampleRows, UNTRACED_CAPTION, untraced, type TimelineSample } from './timeline-rows.js';

/**
 * With --at, the actions the timeline samples from: this many groups per row it may show,
 * nearest the time (about 5 s of arrivals at 50/s for the default rows): enough for the
 * eventful ones to be chosen among, few enough that they all arrive close to it.
 */
const NEAR_GROUPS_PER_ROW = 4;

/** Most rows `--rows` may ask for: about 1 KB a row keeps a page under about 2 MB. */
const MAX_ROWS = 2000;

/** `--rows`: the most timeline rows for eventful actions (DEFAULT_LIMITS' without it). */
export function eventfulRows(given: Taken<number> | undefined): number {
  if (given === undefined) return DEFAULT_LIMITS.eventfulRows;
  if (given.value > MAX_ROWS) {
    throw new InputError({ source: `--rows ${given.text}` }, '', `asks for more rows than a page can show (at most ${num(MAX_ROWS)})`,
      `Give --rows ${MAX_ROWS} or fewer; the page then stays under about 2 MB.`);
  }
  return given.value;
}

/** Whether the page shows the run over time without --series: the scenario has incidents, alerts or a load profile. */
export function showsTime(s: Scenario): boolean {
  return s.incidents.length > 0 || s.alerts.length > 0 || s.load.profile.length > 0;
}

/**
 * The timeline's rows and the scope of their note: `eventfulRows` the most rows for eventful
 * actions; `focus` the time (and its chunk) they arrive nearest, if any. `scenario` has its primaries.
 */
export function timelineSample(scenario: Scenario, seed: string, gridStep: number, asked: { eventfulRows: number; focus: Focus | undefined }): { sample: TimelineSample; scope: SampleScope } {
  const limits = { ...DEFAULT_LIMITS, eventfulRows: asked.eventfulRows };
  const focus = asked.focus;
  const plan = focus?.plan ?? runPlans(scenario, seed, 0, 1).next().value;
  if (!plan) throw new Error('a run has at least one chunk');
  const actions = traceActions(scenario, gridStep, seed, plan);
  if (actions === null) return { sample: untraced(), scope: FIRST_CHUNK };
  if (!focus) return { sample: sampleRows(actions, plan.offset, scenario.client.timeout, limits), scope: FIRST_CHUNK };
  const near = nearestActions(actions, plan, focus.at, NEAR_GROUPS_PER_ROW * (limits.eventfulRows + limits.quietRows));
  const sample = sampleRows(numberedInRun(near.actions, plan), plan.offset, scenario.client.timeout, limits);
  const source = `arriving nearest ${duration(focus.at)} into the run (from ${clock(near.from)} to ${clock(near.to)})${focusWords(focus)}`;
  return { sample, scope: { source, pool: 'them', poolActions: 'those actions' } };
}

/** The timeline's caption: the command that draws it again, the version, and what the rows are. */
export function timelineCaption(replay: string, version: string, sample: TimelineSample, at: number | undefined): string {
  if (sample.omitted !== undefined) return `${replay}  ·  idem-sim ${version}  ·  ${UNTRACED_CAPTION}`;
  const near = at !== undefined ? `, arriving nearest ${duration(at)}` : '';
  return `${replay}  ·  idem-sim ${version}  ·  ${num(sample.shown)} of ${num(sample.simulated)} actions${near}${runsWords(sample)}, eventful ones over-represented`;
}
