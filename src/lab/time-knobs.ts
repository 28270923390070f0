/**
 * The lab's knobs of time (docs/model.md, "Time"): the incident window a person switches on
 * (`incidents[0]`: a pause or a capacity drop of a service with workers, a slowdown), and how
 * long the run is: `actions`, or the arrivals of `load.duration`, whose count the actions knob
 * then shows instead of a number the run does not use.
 */
import { arrivalSpan, expectedPrimaries } from '../model/clock.js';
import type { WrittenScenario } from '../model/types.js';
import { formatDuration } from '../scenario/duration.js';

/** The incident switch: the scenario's first window, its knobs those of the page's group `incidents`. */
export const INCIDENT = 'incidents[0]';

export const INCIDENT_KEYS = {
  from: `${INCIDENT}.from`,
  to: `${INCIDENT}.to`,
  workers: `${INCIDENT}.service.capacity.workers`,
  multiplier: `${INCIDENT}.service.latency_multiplier`,
} as const;

/** The longest window the page offers: a pause of 30 s at 70% busy already storms (scenarios/capacity-storm.yaml). */
const LONGEST_OFFER_MS = 30_000;

/** The slowdown offered to a service without workers: incident-slowdown.yaml's. */
const SLOWDOWN = '4';

/** A time to one significant digit (26.7 s: 30 s; 450 s: 500 s), for a window a person reads at a glance. */
export function roughly(ms: number): number {
  if (!(ms > 0)) return 0;
  const power = 10 ** Math.floor(Math.log10(ms));
  return Math.round(ms / power) * power;
}

/**
 * What the incident's keys change, as the page offers them: with workers (service.capacity on),
 * a pause (0 workers), else the latency ×4; blank is "as outside the window".
 */
export function incidentChange(capacity: boolean): { workers: string; multiplier: string } {
  return capacity ? { workers: '0', multiplier: '' } : { workers: '', multiplier: SLOWDOWN };
}

/**
 * The incident's knobs for a scenario without one, ready for the switch: a window from a third of
 * the load, lasting an eighth of it up to 30 s, and what it changes (`incidentChange`).
 */
export function incidentOffer(written: WrittenScenario): Record<string, string> {
  const span = arrivalSpan(written);
  const from = roughly(span / 3);
  const change = incidentChange(written.service.capacity !== null);
  return {
    [INCIDENT_KEYS.from]: formatDuration(from),
    [INCIDENT_KEYS.to]: formatDuration(from + Math.min(LONGEST_OFFER_MS, Math.max(1, roughly(span / 8)))),
    [INCIDENT_KEYS.workers]: change.workers,
    [INCIDENT_KEYS.multiplier]: change.multiplier,
  };
}

/** The name the page gives a window it adds (alerts, the charts and the readings name it): what it does. */
export function incidentName(texts: Readonly<Record<string, string>>): string {
  const workers = (texts[INCIDENT_KEYS.workers] ?? '').trim();
  if (workers === '0') return 'pause';
  if (workers !== '') return 'capacity-drop';
  return (texts[INCIDENT_KEYS.multiplier] ?? '').trim() === '' ? 'incident' : 'slowdown';
}

/** Whether `load.duration` sets how many actions arrive (its knob says anything but `none`): the actions knob is then no --actions. */
export function byDuration(texts: Readonly<Record<string, string>>): boolean {
  const text = texts['load.duration'];
  return text !== undefined && text.trim() !== 'none';
}

/** The actions knob's text: the scenario's `actions`, or the arrivals its `load.duration` is expected to bring (the page shows the count simulated once it has run). */
export function actionsText(written: WrittenScenario): string {
  const expected = expectedPrimaries(written);
  return String(expected === null ? written.actions : Math.round(expected));
}

/** The words beside the actions knob: where the count comes from, and whether it is the run's. */
export function actionsNote(duration: boolean, simulated: boolean): string {
  if (!duration) return '';
  return simulated ? 'simulated: set by load.duration' : 'expected: set by load.duration';
}
