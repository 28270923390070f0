/**
 * The memory a sweep's alerts take: a table, page or SVG keeps each point's readings, per alert
 * its firings, its false alarms and a delay per incident, until it is drawn, and `merge` keeps
 * every part's (CSV and JSON write them as each point finishes). The limit holds for every
 * format, so that whether a grid is refused does not depend on it: `sweep` checks the whole grid
 * before simulating a point, and `merge` as the parts come in.
 */
import { isCoupled } from '../model/capacity.js';
import type { WrittenScenario } from '../model/types.js';
import { InputError } from '../scenario/errors.js';

/**
 * Alert readings a sweep keeps, all points together. 100 alerts over 100 incidents are 10,200 a
 * point: 2,000 such points (20 million) ran a 512 MB heap out; 490 (5 million) peaked at 448 MB
 * and 98 (1 million) at 181 MB as CSV.
 */
export const MAX_ALERT_READINGS = 1_000_000;

/** Readings an alert keeps per incident: its delay, and in a coupled run its recovery (docs/model.md, "Capacity"). */
const perIncident = (s: WrittenScenario): number => (isCoupled(s) ? 2 : 1);

/** The alert readings a sweep point of `s` keeps. */
export const alertReadings = (s: WrittenScenario): number => s.alerts.length * (s.incidents.length * perIncident(s) + 2);

/** A count as the refusal writes it: 1,000,000. */
const num = (n: number): string => n.toLocaleString('en-US');

/** The refusal of a grid of `points` points of `s` (`source`: the scenario file, or a part). */
export function tooManyReadings(source: string, points: number, s: WrittenScenario): InputError {
  const each = Math.max(1, alertReadings(s));
  const incident = perIncident(s) === 2 ? 'a delay and a recovery per incident' : 'a delay per incident';
  return new InputError({ source }, 'alerts', `a sweep keeps each point's alert readings (per alert: its firings, its false alarms and ${incident}), and ${num(points)} points of ${num(s.alerts.length)} alerts over ${num(s.incidents.length)} incidents need ${num(points * alertReadings(s))}, more than the ${num(MAX_ALERT_READINGS)} it may hold`,
    `Vary fewer values (at most ${num(Math.max(1, Math.floor(MAX_ALERT_READINGS / each)))} points for these alerts), or sweep fewer alerts or incidents at a time.`);
}
