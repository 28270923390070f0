/**
 * The saturation's words (docs/capacity.md): an overload episode says what the run shows (a busy
 * period at few workers and long service times is not called a storm), blames the part of it
 * outside the incident's reach, and the alerts' readings on a stormed run are qualified
 * (recovery that ended with the load, a false alarm that caught an overload); the near-capacity
 * warning names the guards and no worker count beyond the model's limit, and is given for a
 * latency a file holds once the command has read it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type { Io } from '../src/io/streams.js';
import { main } from '../src/cli/main.js';
import { alertRows } from '../src/report/alert-rows.js';
import { blame, falseAlarmText, saturationLines, saturationRows } from '../src/report/saturation-text.js';
import { alertTable } from '../src/report/time-section.js';
import type { AlertResult } from '../src/results/alerts.js';
import type { Metrics } from '../src/results/metrics.js';
import type { ScenarioRun } from '../src/report/types.js';
import { parseScenario } from '../src/scenario/parse.js';
import { removeScratch, scratch } from './helpers.js';

afterEach(removeScratch);

const MIN = 60_000;
const llm = parseScenario(`load: {rate_per_s: 0.2, duration: 2h}
service: {latency: {dist: exponential, mean: 10s}, capacity: {workers: 4}}
client: {timeout: 5m, retries: 0}
`, 'llm.yaml').scenario;
const payments = parseScenario(`load: {rate_per_s: 150, duration: 30m}
service: {latency: {p50: 180ms, p99: 1.2s}, capacity: {workers: 40}}
client: {timeout: 2s, retries: 3}
incidents:
  - {name: pause, from: 10m, to: 620s, service: {capacity: {workers: 0}}}
alerts:
  - {name: timeouts, metric: timeouts, above: 5, for: 1m}
`, 'payments.yaml').scenario;

/** The readings the words are made of (the rest of Metrics is not read). */
const metrics = (m: Partial<Metrics> & { attempts?: number }): Metrics => ({
  attempts_per_action: { value: m.attempts ?? 1, ci95: [m.attempts ?? 1, m.attempts ?? 1] }, stable: (m.overload_episodes ?? []).length === 0, ...m,
}) as unknown as Metrics;

describe('an overload episode in words', () => {
  test('a busy period at 50% with no retries is said as the fact, not as load exceeding the workers', () => {
    // llm.yaml, seed 1: 4 workers, 10 s exponential service, 0.2/s, retries 0.
    const m = metrics({ overload_episodes: [[612_000, 684_000]], offered_utilisation: 0.5, peak_offered_utilisation: 0.5, load_end_ms: 2 * 60 * MIN });
    const [line] = saturationLines(m, llm);
    expect(line).toBe('every worker busy from 10.2 min to 11.4 min with no incident: a busy period of 1.2 min at 50% offered utilisation, with no retries adding load; with few workers and long service times such periods are normal: gate on backlog_cleared_ms or saturated_share rather than stable');
  });

  test('the load exceeding the workers is said where the run shows it: retries add load, the first attempts reach the workers, or the episode outlives the load', () => {
    const episode = { overload_episodes: [[612_000, 684_000]] as [number, number][], offered_utilisation: 0.5, peak_offered_utilisation: 0.5, load_end_ms: 2 * 60 * MIN };
    for (const m of [metrics({ ...episode, attempts: 1.3 }), metrics({ ...episode, peak_offered_utilisation: 1.02 }), metrics({ ...episode, load_end_ms: 650_000 })]) {
      expect(saturationLines(m, llm)[0]).toBe('saturated from 10.2 min to 11.4 min with no incident: the offered load with its retries exceeds 4 workers');
    }
  });

  test('an episode that begins a moment before the pause and outlives it is blamed on outliving it', () => {
    // payments.yaml, seed 4: the episode starts 157 ms before the pause and ends at 2.17 h.
    expect(blame(payments, [600_000 - 157, 7_812_000])).toBe('outliving the pause by more than 30 minutes');
    expect(blame(payments, [480_000, 700_000])).toBe('beginning 2 min before the pause');
    const m = metrics({ overload_episodes: [[600_000 - 157, 7_812_000]], attempts: 4.6, offered_utilisation: 0.94, peak_offered_utilisation: 0.94, load_end_ms: 30 * MIN,
      recovered: { pause: false }, backlog_cleared_ms: { pause: 7_192_000 } });
    expect(saturationLines(m, payments)[0]).toBe('saturated from 10 min to 2.17 h outliving the pause by more than 30 minutes: the offered load with its retries exceeds 40 workers');
  });

  test('the table\'s row of overload episodes does not say no incident is to blame', () => {
    const run = { scenario: payments, metrics: metrics({ overload_episodes: [], backlog_cleared_ms: { pause: 5 }, recovered: { pause: true } }) } as unknown as ScenarioRun;
    expect(saturationRows([run])[1]?.[0]).toBe('overload episodes (1 min+ saturated outside incidents)');
  });

  test('no overload episode beside an incident not recovered from does not read "stable"; a storm outliving the incident is no recovery', () => {
    // The pause's episode lies within its 30 minutes, but the run ended first: stable by the contract, not recovered.
    const unrecovered = { scenario: payments, metrics: metrics({ overload_episodes: [], backlog_cleared_ms: { pause: 900_000 }, recovered: { pause: false }, recovery: { pause: 'not_recovered' }, load_end_ms: 30 * MIN }) } as unknown as ScenarioRun;
    const cellOf = (run: ScenarioRun, row: number) => (saturationRows([run])[row]?.[1] as (r: ScenarioRun) => string)(run);
    expect(cellOf(unrecovered, 1)).toBe('none outside incidents, but not recovered from the pause');
    const calm = { scenario: payments, metrics: metrics({ overload_episodes: [], backlog_cleared_ms: { pause: 5 }, recovered: { pause: true }, recovery: { pause: 'recovered' } }) } as unknown as ScenarioRun;
    expect(cellOf(calm, 1)).toBe('none (stable)');
    // A storm from the pause to 45 min: its backlog cleared (recovered: true), 34.7 min after the pause ended, yet an overload.
    const m = metrics({ overload_episodes: [[600_000, 45 * MIN]], attempts: 3, load_end_ms: 60 * MIN, recovered: { pause: true }, backlog_cleared_ms: { pause: 45 * MIN - 620_000 }, recovery: { pause: 'stormed_after' } });
    expect(saturationLines(m, payments)[1]).toBe('pause: backlog cleared 34.7 min after it ended, but the storm it set off outlived it by more than 30 minutes (an overload, not a recovery)');
    expect(cellOf({ scenario: payments, metrics: m } as unknown as ScenarioRun, 2)).toBe('34.7 min (a storm outliving it: overload)');
  });
});

describe('alert readings on a stormed run', () => {
  const storm = metrics({ overload_episodes: [[600_000 - 157, 7_812_000]], attempts: 4.6, load_end_ms: 30 * MIN, recovered: { pause: false }, backlog_cleared_ms: { pause: 7_192_000 } });
  const alert: AlertResult = {
    name: 'timeouts', firing_count: 1, firings: [[11 * MIN, 33 * MIN]], false_alarms: 0,
    detection_delay_ms: { pause: MIN }, recovery_ms: { pause: 1_362_000 },
  } as unknown as AlertResult;
  const cell = (label: string, run: ScenarioRun) => alertRows([run]).find((r) => r[0] === label)?.[1]?.(run);

  test('a recovery that ended with the load says the backlog had not cleared, in the table and the report', () => {
    const run = { scenario: payments, metrics: storm, alerts: [alert] } as unknown as ScenarioRun;
    expect(cell('  recovery after pause ended', run)).toBe('22.7 min (the load ended; the backlog had not cleared)');
    expect(alertTable(payments, [alert], storm)).toContain('pause: 22.7 min (the load ended; the backlog had not cleared)');
    const recovered = metrics({ overload_episodes: [], load_end_ms: 30 * MIN, recovered: { pause: true }, backlog_cleared_ms: { pause: 5 } });
    expect(cell('  recovery after pause ended', { ...run, metrics: recovered })).toBe('22.7 min');
  });

  test('a false alarm that overlaps an overload episode is said as such; its number stays the alerts\'', () => {
    const m = metrics({ overload_episodes: [[6 * MIN, 33 * MIN]], attempts: 5.3, load_end_ms: 30 * MIN });
    const fired = { ...alert, false_alarms: 1, firings: [[7 * MIN, 33 * MIN]], detection_delay_ms: {}, recovery_ms: {} } as unknown as AlertResult;
    const run = { scenario: llm, metrics: m, alerts: [fired] } as unknown as ScenarioRun;
    expect(cell('  false alarms', run)).toBe('1, during the overload from 6 min to 33 min');
    expect(alertTable(llm, [fired], m)).toContain('<td>1, during the overload from 6 min to 33 min</td>');
    expect(falseAlarmText(1, [[7 * MIN, 8 * MIN]], 0, metrics({ overload_episodes: [] }), llm)).toBe('1');
    // A firing the pause owns (its start within the window and grace) is no false alarm of the words'.
    expect(falseAlarmText(1, [[601_000, 700_000], [50 * MIN, 51 * MIN]], 10 * MIN, metrics({ overload_episodes: [[590_000, 800_000]] }), payments)).toBe('1');
  });
});

describe('the near-capacity warning', () => {
  const near = (text: string, file = 's.yaml') => parseScenario(text, file).warnings.find((w) => w.keyPath === 'service.capacity.workers');

  test('the workers for 0.7 keep normal load from capacity; the guards, named, stop a storm an incident starts', () => {
    const w = near(`load: {rate_per_s: 150, duration: 30m}
service: {latency: {p50: 180ms, p99: 1.2s}, capacity: {workers: 40}}
client: {timeout: 2s, retries: 3}
`);
    expect(w?.fix).toBe('Give it 54 workers (peak_offered_utilisation 0.7), or lower the rate, to keep normal load away from capacity. More workers do not stop a storm that an incident starts; the guards do: a bounded queue (service.capacity.queue), service.capacity.drop_expired, a retry budget (client.retry_budget), retry throttling (client.retry_throttle) or a breaker (client.breaker); docs/capacity.md, "Near capacity".');
  });

  test('no worker count beyond the model\'s limit', () => {
    const w = near(`load: {rate_per_s: 1000}
service: {latency: {dist: constant, value: 1h}, capacity: {workers: 1000000}}
`);
    expect(w?.fix).not.toMatch(/Give it/);
    expect(w?.fix).toMatch(/^The workers for peak_offered_utilisation 0\.7 would be more than 1,000,000, beyond the model's limit of workers: lower the rate or the service time\. More workers do not stop/);
  });

  test('a latency an empirical file holds is warned of once the command has read it, before the run', async () => {
    const dir = scratch();
    writeFileSync(join(dir, 'lat.txt'), '100\n300\n500\n'); // mean 300 ms: 100/s on 32 workers is 0.94
    writeFileSync(join(dir, 's.yaml'), 'actions: 200\nload: {rate_per_s: 100}\nservice:\n  latency: {dist: empirical, file: lat.txt}\n  capacity: {workers: 32}\n');
    let err = '';
    const sink = (add: (s: string) => void) => ({ write: (s: string | Uint8Array) => { add(String(s)); return true; } }) as unknown as NodeJS.WritableStream;
    const io: Io = { stdout: Object.assign(sink(() => {}), { isTTY: false }), stderr: sink((s) => { err += s; }), env: { NO_COLOR: '1' } };
    expect(await main(['node', 'idem-sim', 'run', join(dir, 's.yaml'), '--format', 'json'], io)).toBe(0);
    expect(err).toMatch(/s\.yaml:5:\d+, key service\.capacity\.workers: is near capacity: first attempts alone keep 94% of the 32 workers busy/);
    expect(err).toContain('Give it 43 workers (peak_offered_utilisation 0.7)');
  });
});
