/** Settings a scenario writes that have no effect under its others (model/inert.ts), as warnings. */
import { windowMatters } from '../model/incidents.js';
import { hasQuietTime, quietGrace } from '../results/quiet.js';
import { inertSettings, SET_SCOPE } from '../model/inert.js';
import { DEFAULT_SCENARIO, paramAt } from '../model/shape.js';
import { formatDuration } from './duration.js';
import type { WrittenScenario } from '../model/types.js';
import { valueAt } from './document.js';
import { capacityWarnings } from './capacity-warnings.js';
import { triggerWarnings } from './trigger-warnings.js';
import { alertsWithoutTrigger } from '../results/delivery.js';
import { namedPresets } from './presets.js';
import type { Origin } from './errors.js';

type Path = readonly (string | number)[];
type Raw = Record<string, unknown>;

/** A setting that is valid but has no effect: printed on stderr and listed in JSON. */
export interface ScenarioWarning {
  origin?: Origin;
  keyPath: string;
  problem: string;
  fix: string;
  /**
   * What it warns of, when not a setting with no effect: `name`, a name the outputs use rewritten
   * (an agent's, from its file's name); `expectation`, an expectation that is not checked as written
   * (said only where expectations are checked: cli/shared/load.ts `scenarioReader`).
   */
  kind?: WarningKind;
}

/** The kinds of warning other than a setting with no effect (`check --format github` titles each by its kind). */
export type WarningKind = 'name' | 'expectation';

/** The keys a file or `--set` wrote (before presets) that the model does not read under the others. */
export function inertWarnings(document: Raw, scenario: WrittenScenario, locate: (p: Path, keyNode?: boolean) => Origin): ScenarioWarning[] {
  // A key written with its default value changes nothing whatever the others say (a file that spells
  // out the lab, such as scenarios/lab-defaults.yaml, is not warned of).
  const at = (tree: unknown, path: string) => valueAt(tree, path.split('.'));
  const changed = writtenLeaves(document).filter((p) => JSON.stringify(at(scenario, p)) !== JSON.stringify(at(DEFAULT_SCENARIO, p)));
  const found: ScenarioWarning[] = inertSettings(scenario, changed).map(({ path, because }) => ({
    origin: locate(path.split('.'), true), keyPath: path, problem: `has no effect: ${because}`,
    fix: 'Remove it, or change the setting that makes it inert if it should count.',
  }));
  found.push(...incidentWarnings(scenario, locate), ...capacityWarnings(scenario, locate), ...triggerWarnings(document, scenario, locate));
  found.push(...alertsWithoutTrigger(scenario).map(({ index, ...w }) => ({ origin: locate(['alerts', index, 'metric'], true), ...w })));
  if (scenario.load.profile[0]?.at === 0 && changed.includes('load.rate_per_s')) {
    found.push({ origin: locate(['load', 'rate_per_s'], true), keyPath: 'load.rate_per_s',
      problem: 'has no effect: load.profile sets the rate from 0 on', fix: 'Remove it, or start the profile later than 0.' });
  }
  // A server preset under scope none has its own warning below (it fills keys no key reads).
  found.unshift(...overriddenPresets(document, locate).filter((w) => !(w.keyPath === 'preset' && scenario.idempotency.scope === 'none')));
  if (typeof document['preset'] === 'string' && scenario.idempotency.scope === 'none') {
    found.unshift({ origin: locate(['preset'], true), keyPath: 'preset', problem: `has no effect: the preset fills the idempotency keys, but idempotency.scope is none, so no key is used`,
      fix: `${SET_SCOPE}, or remove the preset.` });
  }
  return found;
}

/**
 * A preset (`preset:`, `client.preset:`) every key of which the scenario sets itself (its file, a
 * file it extends, --set, an agent's keys): those win, so it fills none.
 */
function overriddenPresets(document: Raw, locate: (p: Path, keyNode?: boolean) => Origin): ScenarioWarning[] {
  const written = new Set(writtenLeaves(document));
  return namedPresets(document).flatMap(({ path, preset }) => {
    const fills = writtenLeaves(preset.values);
    if (fills.length === 0 || !fills.every((key) => written.has(key))) return [];
    return [{ origin: locate(path, true), keyPath: path.join('.'), problem: `has no effect: the scenario sets every key the preset fills (${fills.join(', ')}), and its own keys win`,
      fix: 'Remove the preset, or the keys you mean it to set (a preset in an agent\'s defaults: may still fill another tool\'s keys).' }];
  });
}

/** Incident windows whose settings do nothing: a store outage without keys, a window that changes nothing and that no alert is judged on. */
function incidentWarnings(s: WrittenScenario, locate: (p: Path, keyNode?: boolean) => Origin): ScenarioWarning[] {
  const out: ScenarioWarning[] = [];
  s.incidents.forEach((w, i) => {
    if (w.store.down && s.idempotency.scope === 'none') {
      out.push({ origin: locate(['incidents', i, 'store', 'down'], true), keyPath: `incidents[${i}].store.down`,
        problem: 'has no effect: idempotency.scope is none, so no key store is used', fix: `${SET_SCOPE}, or remove it.` });
    }
    if ((w.runtime.crash_probability ?? 0) > 0 && s.runtime.max_replays === 0) {
      out.push({ origin: locate(['incidents', i, 'runtime', 'crash_probability'], true), keyPath: `incidents[${i}].runtime.crash_probability`,
        problem: 'has no effect: runtime.max_replays is 0, so no crashed run is resumed (and none replays)', fix: 'Raise runtime.max_replays (1 is the default), or remove it.' });
    }
    if (!windowMatters(s, i) && s.alerts.length === 0) {
      out.push({ origin: locate(['incidents', i], true), keyPath: `incidents[${i}]`,
        problem: 'has no effect: the window changes no parameter from what is in force without it (the scenario\'s own values, or other windows\' where they overlap), and no alert is judged on it',
        fix: 'Give it what changes (such as service: {latency_multiplier: 4} or store: {down: true}), or add an alert.' });
    }
  });
  if (s.incidents.length > 0 && !hasQuietTime(s)) {
    out.push({ origin: locate(['incidents'], true), keyPath: 'incidents',
      problem: `leave no quiet time: the windows and their grace (${formatDuration(quietGrace(s))} after each) leave no whole minute of the load in which primaries arrive, so the alert baselines are the run's own, incidents included, and duplicates per day outside incidents is not measured`,
      fix: 'Lengthen load.duration (or actions) past the last window\'s end and its grace, or give the alerts a shorter grace.' });
  }
  return out;
}

/** Key paths of the model's leaves a document writes; a latency distribution counts as one leaf. */
function writtenLeaves(document: Raw): string[] {
  const out: string[] = [];
  const walk = (v: unknown, path: string): void => {
    if (path === 'service.latency' || typeof v !== 'object' || v === null || Array.isArray(v)) { out.push(path); return; }
    for (const [k, x] of Object.entries(v)) if (path !== '' || paramAt(k) !== undefined) walk(x, path === '' ? k : `${path}.${k}`);
  };
  walk(document, '');
  return out;
}

