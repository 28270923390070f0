/**
 * What the knobs say, as the command line would say it: each knob that differs from the
 * scenario file becomes a `--set key=value` (`--actions N` for the actions), written as the
 * user typed it, so the page's run is `idem-sim run FILE --set ... --seed S` exactly, and an
 * invalid value gets the same error the CLI gives for that option.
 */
import { DEFAULT_SCENARIO, type WrittenLatency, type WrittenScenario } from '../model/types.js';
import type { Override } from '../scenario/parse.js';
import { formatDuration } from '../scenario/duration.js';
import { formatPath } from '../scenario/document.js';
import { parseKeyPath } from '../scenario/overrides.js';
import { KNOB_KEYS, LATENCY_KEYS, knobSpec, knobText, switchedKeys, switchedOffText, switchOf, valueAtKey } from './knobs.js';
import { actionsText, byDuration, INCIDENT, INCIDENT_KEYS, incidentChange, incidentName } from './time-knobs.js';
import { paramAt } from '../model/shape.js';
import { required } from '../model/params.js';

/** How the latency knobs write the distribution: median and sigma, two percentiles, or as the file does (any other form). */
export type LatencyForm = 'median' | 'percentiles' | 'written';

export interface KnobState {
  /** Each knob's text as typed (a checkbox's is `true` or `false`). */
  texts: Record<string, string>;
  latency: LatencyForm;
}

/** Φ⁻¹(0.99), for the p99 a median and sigma give. */
const Z99 = 2.3263478740408408;

const LATENCY_KNOBS: ReadonlySet<string> = new Set([...LATENCY_KEYS.median, ...LATENCY_KEYS.percentiles]);

/** Three significant digits, as a duration with its unit. */
const roughDuration = (ms: number) => formatDuration(Number(ms.toPrecision(3)));

/** The latency form a written distribution is shown in, and the four latency knobs' texts. */
export function latencyState(latency: WrittenLatency): { form: LatencyForm; texts: Record<string, string> } {
  // Another form: the knobs offer the default lognormal, should the user switch to it.
  if (latency.dist !== 'lognormal') return { form: 'written', texts: latencyState(DEFAULT_SCENARIO.service.latency).texts };
  const fitted = latency.fitted_to;
  const keys = fitted ? Object.keys(fitted).sort().join(',') : '';
  const texts: Record<string, string> = {
    'service.latency.median': fitted ? roughDuration(latency.median) : formatDuration(latency.median),
    'service.latency.sigma': fitted ? String(Number(latency.sigma.toPrecision(3))) : String(latency.sigma),
    'service.latency.p50': formatDuration(fitted?.['p50'] ?? Number(latency.median.toPrecision(3))),
    'service.latency.p99': formatDuration(fitted?.['p99'] ?? Number((latency.median * Math.exp(Z99 * latency.sigma)).toPrecision(3))),
  };
  return { form: !fitted ? 'median' : keys === 'p50,p99' ? 'percentiles' : 'written', texts };
}

/** The knobs' state for a written scenario and its seed. */
export function knobState(written: WrittenScenario, seed: string): KnobState {
  const latency = latencyState(written.service.latency);
  const texts: Record<string, string> = { ...latency.texts, seed };
  for (const key of KNOB_KEYS) {
    const spec = knobSpec(key);
    if (!spec || LATENCY_KNOBS.has(key) || key === 'seed') continue;
    const section = switchOf(key);
    // A section left out (none, or a list without its item): its knobs show what switching it on would give.
    texts[key] = section !== undefined && valueAtKey(written, section) == null ? switchedOffText(key, written) : knobText(spec.kind, valueAtKey(written, key));
  }
  // With load.duration, the arrivals it brings (the page shows the count simulated once it has run).
  texts['actions'] = actionsText(written);
  return { texts, latency: latency.form };
}

/** What the knobs show for a loaded scenario (the file alone as `base`, with its overrides as `start`) and its seed; `written` names a latency form no knob shows ('' for none). */
export function shownKnobs({ base, start }: { base: WrittenScenario; start: WrittenScenario }, seed: string): { state: KnobState; written: string } {
  const written = latencyState(base.service.latency).form === 'written' ? base.service.latency.dist : '';
  return { state: knobState(start, seed), written };
}

const setOf = (key: string, text: string): Override => ({ path: parseKeyPath(key) ?? [key], text, option: `--set ${key}=${text}` });

/** The latency's overrides: per key where the file writes the same form, else the whole distribution. */
function latencyOverrides(state: KnobState, base: KnobState): Override[] {
  if (state.latency === 'written') return [];
  const keys = LATENCY_KEYS[state.latency];
  const changed = keys.filter((k) => state.texts[k] !== base.texts[k]);
  if (state.latency === base.latency) return changed.map((k) => setOf(k, state.texts[k] ?? ''));
  const [a, b] = keys.map((k) => `${k.slice('service.latency.'.length)}: ${state.texts[k] ?? ''}`);
  return [setOf('service.latency', `{${a}, ${b}}`)];
}

const isOn = (state: KnobState, key: string) => state.texts[key] === 'true';

/**
 * A switch's overrides: `none` when switched off; when switched on, its knobs that differ from
 * what the page offered, and those a file must write (workers), or else its first knob (a key
 * set inside a section left out opens it with its defaults). A list's first item (an incident)
 * is the list: off is `incidents=none`, on writes its name and every knob that is not blank,
 * since what the page offered is no default.
 */
function switchOverrides(key: string, state: KnobState, base: KnobState): Override[] {
  const on = isOn(state, key);
  if (on === isOn(base, key)) return [];
  const item = key === INCIDENT;
  if (!on) return [setOf(item ? 'incidents' : key, 'none')];
  const keys = switchedKeys(key);
  if (item) return [setOf(`${key}.name`, incidentName(state.texts)), ...keys.filter((k) => (state.texts[k] ?? '').trim() !== '').map((k) => setOf(k, state.texts[k] ?? ''))];
  const mustWrite = (k: string) => { const param = paramAt(k); return param !== undefined && required(param); };
  const given = keys.filter((k) => state.texts[k] !== base.texts[k] || mustWrite(k));
  return (given.length > 0 ? given : keys.slice(0, 1)).map((k) => setOf(k, state.texts[k] ?? ''));
}

/** The overrides the knobs make on top of the scenario file: each knob that differs from `base`, in page order, actions last (as the CLI orders them). */
export function knobOverrides(state: KnobState, base: KnobState): Override[] {
  const sets: Override[] = [];
  for (const key of KNOB_KEYS) {
    if (key === 'seed' || key === 'actions' || LATENCY_KNOBS.has(key)) {
      if (key === LATENCY_KEYS.median[0]) sets.push(...latencyOverrides(state, base));
      continue;
    }
    const section = switchOf(key);
    // An off section's knobs say nothing; a section switched on sets its knobs with its switch.
    if (section !== undefined && !(isOn(state, section) && isOn(base, section))) continue;
    if (knobSpec(key)?.kind === 'switch') { sets.push(...switchOverrides(key, state, base)); continue; }
    const text = state.texts[key];
    if (text !== undefined && text !== base.texts[key]) sets.push(setOf(key, text));
  }
  // With load.duration the actions knob shows the count it brings: no --actions (the CLI refuses both).
  const actions = state.texts['actions'];
  if (actions !== undefined && actions !== base.texts['actions'] && !byDuration(state.texts)) sets.push({ path: ['actions'], text: actions, option: `--actions ${actions}` });
  return sets;
}

/** An override's command-line arguments (`--set`, `key=value`), from its option text. */
export function overrideArgs(o: Override): string[] {
  const space = o.option.indexOf(' ');
  return [o.option.slice(0, space), o.option.slice(space + 1)];
}

/** Whether an override sets a knob's key (else it is one of the lab's own --set that no knob shows, kept as it is). */
export function isKnobPath(o: Override): boolean {
  return KNOB_KEYS.includes(formatPath(o.path));
}

/**
 * Knob texts a switch sets as a person turns it on: an incident the file does not have becomes
 * a pause when the service has workers now, else a slowdown (`incidentChange`); {} otherwise.
 */
export function switchedOnTexts(key: string, state: KnobState, base: KnobState): Record<string, string> {
  if (key !== INCIDENT || isOn(base, key)) return {};
  const change = incidentChange(isOn(state, 'service.capacity'));
  return { [INCIDENT_KEYS.workers]: change.workers, [INCIDENT_KEYS.multiplier]: change.multiplier };
}
