/**
 * docs/csv.md lists every column `sweep --format csv` writes, with the unit and meaning the
 * metric registry gives: the doc and the code cannot drift apart. When a metric is added or its
 * description changes, this test prints the row docs/csv.md should hold.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { csvMetricPaths, metricColumns } from '../src/report/csv.js';
import { SERIES_COLUMNS } from '../src/report/series-csv.js';
import { AGENT_COLUMNS, renderRunsCsv, RUN_COLUMNS, TRAILING } from '../src/report/runs-csv.js';
import { SWEEP_REPORTERS } from '../src/report/sweep-reporters.js';
import type { SweepReport } from '../src/report/sweep.js';
import { METRIC_PATHS, METRICS, type MetricPath } from '../src/results/metric-registry.js';
import { simulate } from '../src/exec/simulate.js';
import type { Trigger } from '../src/model/trigger.js';
import type { Scenario } from '../src/model/types.js';
import { isDurationKey } from '../src/scenario/schema.js';
import { Chalk } from 'chalk';
import { parseRunnable, ROOT, sim } from './helpers.js';

const WHOLE = readFileSync(join(ROOT, 'docs/csv.md'), 'utf8');
/** The sweep's part of the doc, the run series' and the runs' (its last two sections). */
const [DOC, AFTER = ''] = WHOLE.split('\n## Series\n') as [string, string?];
const [SERIES_DOC, RUNS_DOC = ''] = AFTER.split('\n## Runs\n') as [string, string?];
const metrics = sim('actions: 200\n', 200);
/** A point with workers and the throttle: the capacity metrics' columns (docs/model.md, "Capacity"). */
const coupled = sim('actions: 200\nservice: { capacity: { workers: 2 } }\nclient: { retry_throttle: {} }\n', 200);
/** A point with a trigger: its readings' columns (docs/model.md, "Inbound delivery"). */
const TRIGGER: Trigger = { kind: 'webhook', ack_timeout: 1000, ack: 'after_step', redeliveries: 2, schedule: [0], ack_loss: 0, consumer_crash: 0, run_id: 'per_delivery', extend_up_to: null, dedupe: 'none' };
const triggered = simulate({ ...parseRunnable('actions: 200\n'), trigger: TRIGGER } as Scenario, '1').metrics;
/** A sweep of a duration key, a word key and a nested duration: every kind of param column, and every metric's. */
const SWEEP: SweepReport = {
  scenario: 's.yaml', paths: ['client.timeout', 'idempotency.scope', 'service.latency.median'], seed: '1', version: 'test', replay: 'idem-sim sweep s.yaml',
  points: [
    { params: { 'client.timeout': 500, 'idempotency.scope': 'call', 'service.latency.median': 300 }, metrics },
    { params: { 'client.timeout': 500, 'idempotency.scope': 'call', 'service.latency.median': 300 }, metrics: coupled },
    { params: { 'client.timeout': 500, 'idempotency.scope': 'call', 'service.latency.median': 300 }, metrics: triggered },
  ],
};

/** The header of the CSV the reporter writes. */
async function header(): Promise<string[]> {
  const csv = await SWEEP_REPORTERS.csv.render(SWEEP, 'duplicates_per_1000', new Chalk({ level: 0 }));
  return (csv.split('\n')[0] as string).split(',');
}

/** The row of docs/csv.md's metric table for `path`, as the registry words it. */
function docRow(path: MetricPath): string {
  const [value, ...bounds] = metricColumns(path);
  return `| \`${value?.name}\` | ${value?.unit} | ${value?.description} | ${bounds.map((b) => `\`${b.name}\``).join(', ')} |`;
}

describe('docs/csv.md', () => {
  it('names every column the CSV writes (a varied key by its pattern)', async () => {
    const columns = await header();
    expect(columns).toContain('param_client.timeout_ms');
    expect(columns).toContain('param_service.latency.median_ms');
    expect(columns).toContain('param_idempotency.scope');
    for (const name of columns) {
      const path = name.startsWith('param_') ? name.replace(/^param_/, '').replace(/_ms$/, '') : null;
      const documented = path === null ? `\`${name}\`` : isDurationKey(path) ? '`param_<path>_ms`' : '`param_<path>`';
      expect(DOC, `docs/csv.md should name ${documented} (the column ${name})`).toContain(documented);
    }
  });

  it('words each metric, its unit and its interval columns as the registry does', () => {
    for (const path of csvMetricPaths(true, (p) => METRICS[p].only === 'trigger' || METRICS[p].only === 'guard')) expect(DOC, `docs/csv.md should hold the row\n${docRow(path)}`).toContain(`${docRow(path)}\n`);
  });

  it('lists no column the CSV does not write', async () => {
    const columns = new Set(await header());
    const documented = [...DOC.matchAll(/^\| `([^`<>]+)` \|/gm)].map((m) => m[1] as string);
    expect(documented.length).toBeGreaterThan(METRIC_PATHS.length);
    expect(documented.filter((name) => !columns.has(name))).toEqual([]);
  });

  it('lists the columns of run --format csv, in order, as the code words them', () => {
    const rows = [...RUNS_DOC.matchAll(/^\| `([^`]+)` \| ([^|]*) \| (.*) \|$/gm)].map((m) => [m[1], (m[2] as string).trim(), m[3]]);
    expect(rows).toEqual([...RUN_COLUMNS, ...AGENT_COLUMNS, ...TRAILING].map((c) => [c.name, c.unit, c.description]));
    // And the file a run with an agent writes has those columns, in that order, around the metrics and the costs.
    const header = (renderRunsCsv([], { version: 'test', replay: '' }, []).split('\n')[0] as string).split(',');
    expect(header).toEqual([...RUN_COLUMNS, ...csvMetricPaths(false).flatMap(metricColumns), ...TRAILING].map((c) => c.name));
  });

  it('lists the columns of run --series --format csv, in order, as the code words them', () => {
    const rows = [...SERIES_DOC.matchAll(/^\| `([^`]+)` \| ([^|]*) \| (.*) \|$/gm)].map((m) => [m[1], (m[2] as string).trim(), m[3]]);
    expect(rows).toEqual(SERIES_COLUMNS.map((c) => [c.name, c.unit, c.description]));
  });
});

