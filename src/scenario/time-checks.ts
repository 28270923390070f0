/**
 * The checks of docs/model.md's "Time" keys that JSON Schema cannot express: order in time,
 * unique names, windows inside the run, and what overlapping windows add up to.
 */
import { arrivalSpan, expectedPrimaries, primaryCount } from '../model/clock.js';
import { inForceAt, segmentStarts, serviceInForce } from '../model/incidents.js';
import { MAX_ACTIONS } from '../model/limits.js';
import type { WrittenScenario } from '../model/types.js';
import { formatPath } from './document.js';
import { formatDuration } from './duration.js';
import { InputError, type Origin } from './errors.js';

type Path = readonly (string | number)[];
type Fail = (path: Path, problem: string, fix: string) => never;

/** `raw`: the scenario as written (to tell a written `actions` from its default). */
export function checkTime(raw: Record<string, unknown>, s: WrittenScenario, locate: (p: Path) => Origin): void {
  const fail: Fail = (path, problem, fix) => {
    throw new InputError(locate(path), formatPath(path), problem, fix);
  };
  checkLoad(raw, s, fail);
  const end = arrivalSpan(s);
  // To the second: the expected last arrival is rarely a round number of ms.
  const endText = s.load.duration === null ? `the run's expected last arrival (about ${formatDuration(Math.round(end / 1000) * 1000)} for ${s.actions} actions)` : `the run's end (load.duration ${formatDuration(end)})`;
  s.incidents.forEach((w, i) => {
    if (!(w.from < w.to)) fail(['incidents', i, 'to'], `to (${formatDuration(w.to)}) is not after from (${formatDuration(w.from)})`, 'Give the window a to after its from.');
    if (w.from >= end) fail(['incidents', i, 'from'], `the window starts at ${formatDuration(w.from)}, at or after ${endText}`, 'Move the window into the run, or lengthen load.duration (or actions).');
  });
  unique(s.incidents.map((w) => w.name), 'incidents', fail);
  unique(s.alerts.map((a) => a.name), 'alerts', fail);

  for (const t of segmentStarts(s.incidents)) {
    const { error_rate, crash_probability } = serviceInForce(s, inForceAt(s.incidents, t));
    if (error_rate + crash_probability > 1) {
      const i = s.incidents.map((w) => w.from <= t && t < w.to).lastIndexOf(true);
      fail(['incidents', Math.max(0, i), 'service'], `from ${formatDuration(t)} on, error_rate (${error_rate}) + crash_probability (${crash_probability}) in force is above 1, but the two outcomes are exclusive`,
        'Lower one of them in the windows that overlap there so that their sum is at most 1.');
    }
  }
}

function checkLoad(raw: Record<string, unknown>, s: WrittenScenario, fail: Fail): void {
  if (s.load.duration !== null) {
    if (raw['actions'] !== undefined) fail(['actions'], 'is set together with load.duration, but a run has either a number of actions or a duration', 'Remove actions (or --actions): the duration sets how many arrive. Or run a number of actions instead, with --set load.duration=none.');
    if (s.load.duration <= 0) fail(['load', 'duration'], 'is 0: no action could arrive', 'Give a duration above 0, such as 1h.');
    const mean = expectedPrimaries(s) as number;
    if (mean > MAX_ACTIONS) fail(['load', 'duration'], `would bring about ${mean.toExponential(2)} primary actions, more than the ${MAX_ACTIONS.toExponential(0)} a run may simulate`, 'Shorten load.duration or lower the rates.');
  }
  const last = s.load.profile.length - 1;
  if (s.load.duration === null && s.load.profile[last]?.rate_per_s === 0) {
    fail(['load', 'profile', last, 'rate_per_s'], `is 0 from ${formatDuration(s.load.profile[last]!.at)} to the end, but the run counts ${s.actions} actions, and those still to come then would never arrive`,
      'Give a load.duration instead of actions (the lull then ends the load), or end the profile with a rate above 0.');
  }
  s.load.profile.forEach((e, i) => {
    const before = s.load.profile[i - 1];
    if (before && !(e.at > before.at)) fail(['load', 'profile', i, 'at'], `at (${formatDuration(e.at)}) is not after the entry before it (${formatDuration(before.at)})`, 'List the rate changes in time order, each at its own time.');
    if (s.load.duration === null && e.at >= arrivalSpan(s)) {
      fail(['load', 'profile', i, 'at'], `the change at ${formatDuration(e.at)} comes at or after the run's expected last arrival (about ${formatDuration(Math.round(arrivalSpan(s) / 1000) * 1000)} for ${s.actions} actions)`, 'Move it into the run, or simulate more actions (or a load.duration).');
    }
    if (s.load.duration !== null && e.at >= s.load.duration) fail(['load', 'profile', i, 'at'], `the change at ${formatDuration(e.at)} comes at or after the run's end (load.duration ${formatDuration(s.load.duration)})`, 'Move it into the run or lengthen load.duration.');
  });
}

function unique(names: readonly string[], list: string, fail: Fail): void {
  names.forEach((n, i) => {
    const first = names.indexOf(n);
    if (first !== i) fail([list, i, 'name'], `the name "${n.length > 60 ? `${n.slice(0, 60)}...` : n}" is already that of ${list}[${first}]`, `Give each entry of ${list} a name of its own: expect: and reports refer to them by name.`);
  });
}

/**
 * A run of `load.duration` whose arrivals (their Poisson count, from the seed) are none measures
 * nothing: every rate would be 0 over 0 and every expectation on it would pass. Refused, as
 * `actions: 0` is.
 */
export function checkArrivals(scenario: WrittenScenario, seed: string, locate?: (p: Path) => Origin): void {
  const expected = expectedPrimaries(scenario);
  if (expected === null || primaryCount(scenario, seed) > 0) return;
  throw new InputError(locate?.(['load', 'duration']), 'load.duration',
    `brings no action with seed ${seed}: ${formatDuration(scenario.load.duration as number)} at the scenario's ${scenario.load.profile.length > 0 ? 'rates (load.profile)' : 'rate'} gives ${expected === 0 ? 'no arrival' : `${expected.toPrecision(2)} arrivals`} expected, so there is nothing to measure`,
    `Lengthen load.duration or raise ${scenario.load.profile.length > 0 ? 'the rates of load.profile' : 'load.rate_per_s'} (a run needs at least 1 action, as actions: does).`);
}

