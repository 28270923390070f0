/**
 * A metric has one home, its entry in src/results/metric-registry.ts: these tests fail, naming
 * the metric, when a place that shows metrics forgets one or keeps its own words for one. (That
 * `Metrics` and the registry hold the same metrics is checked by type: results/metric-paths.ts.)
 */
import { SATURATION_FIELDS } from '../src/results/saturation.js';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_METRIC_PATHS, METRICS } from '../src/results/metric-registry.js';
import { NOT_IN_TABLE, TABLE_METRICS } from '../src/report/table.js';
import { simulate } from '../src/exec/simulate.js';
import { parseRunnable, ROOT } from './helpers.js';
import type { Trigger } from '../src/model/trigger.js';
import type { Scenario } from '../src/model/types.js';

/** Every file of src/, but the registry. */
function sources(dir = join(ROOT, 'src')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory()
    ? sources(join(dir, e.name))
    : /\.ts$/.test(e.name) && e.name !== 'metric-registry.ts' ? [join(dir, e.name)] : []));
}

/**
 * The dotted paths of every number (or null) in `node`, an Estimate's fields (value, ci95) as its
 * own path; the saturation readings that are no one number (results/saturation.ts) left out.
 */
function numberPaths(node: unknown, at = ''): string[] {
  if (typeof node === 'number' || node === null) return [at];
  if (at === '') node = Object.fromEntries(Object.entries(node as object).filter(([k]) => !(SATURATION_FIELDS as readonly string[]).includes(k)));
  const o = node as Record<string, unknown>;
  const own = 'value' in o && 'ci95' in o ? [at] : [];
  return [...own, ...Object.entries(o).filter(([k]) => k !== 'value' && k !== 'ci95').flatMap(([k, v]) => numberPaths(v, at ? `${at}.${k}` : k))];
}

/** Words of another home that are a metric's words too: a series' chart label (SERIES_LABELS) is the series' own. */
const SAME_WORDS: Readonly<Record<string, readonly string[]>> = {
  'src/report/series-chart.ts': ['unknown outcomes returned to the model'],
};

describe('a metric has one home', () => {
  it('has a row in the run table, or a place in NOT_IN_TABLE saying where it is instead', () => {
    for (const path of ALL_METRIC_PATHS) {
      const places = Number(TABLE_METRICS.includes(path)) + Number(Object.hasOwn(NOT_IN_TABLE, path));
      expect(places, `${path}: give it a row in src/report/table.ts (ROWS) or say in NOT_IN_TABLE where it is shown`).toBe(1);
    }
    expect(new Set(TABLE_METRICS).size).toBe(TABLE_METRICS.length);
  });

  it('is a number of a finished run, and every number of one is a metric (but the action rate)', () => {
    // Incidents (the quiet-time figures) with the store down (its 503s), with workers and the
    // retry throttle (the capacity readings, docs/model.md "Capacity"), and with a trigger (its
    // deliveries, "Inbound delivery"): every metric a run can report.
    const load = 'load: { duration: 10m, rate_per_s: 5 }\n';
    const trigger: Trigger = { kind: 'queue', ack_timeout: 1000, ack: 'after_step', redeliveries: 2, schedule: [0], ack_loss: 0, consumer_crash: 0, run_id: 'per_delivery', extend_up_to: null, dedupe: 'none' };
    const runs = [`${load}incidents:\n  - { name: down, from: 1m, to: 2m, store: { down: true } }\n`, `${load}service: { capacity: { workers: 4 } }\nclient: { retry_throttle: {} }\n`]
      .map((yaml) => numberPaths(simulate(parseRunnable(yaml), 'homes', 60_000).metrics));
    runs.push(numberPaths(simulate({ ...parseRunnable(load), trigger } as Scenario, 'homes', 60_000).metrics));
    const found = [...new Set(runs.flat())];
    expect(ALL_METRIC_PATHS.filter((p) => !found.includes(p)), 'registry metrics a finished run lacks').toEqual([]);
    // The action rate, and a coupled run's T (load_end_ms), are JSON only.
    for (const own of runs) expect(own.filter((p) => !(ALL_METRIC_PATHS as readonly string[]).includes(p) && p !== 'load_end_ms'), 'numbers of a finished run the registry lacks').toEqual(['actions_per_second']);
  });

  it('is named in src/ only by its registry entry: no file keeps its own copy of a label, title or short name', () => {
    const words = new Map<string, string>();
    for (const d of Object.values(METRICS)) for (const w of [d.label, d.title, d.short]) if (w && !words.has(w.toLowerCase())) words.set(w.toLowerCase(), d.path);
    const copies: string[] = [];
    for (const file of sources()) {
      // Comments may name a metric's words; code may not. (A // inside a string cuts it short: no label holds one.)
      const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/[^\n]*/g, '$1');
      for (const [word, path] of words) {
        // The words as a whole string: between quotes, backquotes or a template's ends (`${…}`, `…${`).
        const quoted = new RegExp(`['"\`}]${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}['"\`$]`, 'i');
        if (quoted.test(code) && !SAME_WORDS[relative(ROOT, file)]?.includes(word)) copies.push(`${relative(ROOT, file)}: '${word}' (of ${path}; use metricTitle, metricShort or METRICS['${path}'].label)`);
      }
    }
    expect(copies).toEqual([]);
  });
});
