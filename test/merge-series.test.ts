/**
 * `merge` holds a part's series to its sums (issue 12, item 10): a part's digest is a plain
 * SHA-256, which anyone can recompute, so an edit sealed again must still be refused by what
 * the fields say of each other. In process, on parts written by run --shard.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Io } from '../src/io/streams.js';
import { sealJson, sha256 } from '../src/shards/part-check.js';
import { echoed } from '../src/model/clock.js';
import { mergePartials, type Partial } from '../src/shards/partial.js';
import { command } from './command-line.js';
import { ReplayLine } from '../src/cli/shared/replay.js';
import type { RunStateData } from '../src/results/metrics.js';
import { NUM_SERIES, SERIES_NAMES, seriesTotalFromSums } from '../src/model/series.js';
import { refused } from './merge-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'idem-sim-merge-series-'));
const io = (): Io => ({ stdout: new PassThrough(), stderr: new PassThrough(), env: {} });

const decode = (b64: string): number[] => {
  const bytes = Buffer.from(b64, 'base64');
  return Array.from({ length: bytes.length / 8 }, (_, i) => bytes.readDoubleLE(i * 8));
};
const encode = (xs: readonly number[]): string => {
  const bytes = Buffer.alloc(xs.length * 8);
  xs.forEach((x, i) => bytes.writeDoubleLE(x, i * 8));
  return bytes.toString('base64');
};

/** The parts of `yaml` run in `shards` shards with `args`, as texts. */
async function parts(name: string, yaml: string, shards: number, args: string[] = []): Promise<string[]> {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, yaml);
  const texts: string[] = [];
  for (let i = 1; i <= shards; i++) {
    const out = join(dir, `${name}-${i}.json`);
    expect(await command(['run', file, ...args, '--shard', `${i}/${shards}`, '--out', out], io())).toBe(0);
    texts.push(readFileSync(out, 'utf8'));
  }
  return texts;
}

/** A part edited by `edit` on its first run's state, then sealed again. */
function forged(text: string, edit: (s: RunStateData) => void): string {
  const { digest: _, ...p } = JSON.parse(text) as Partial & { digest?: string };
  edit(p.runs[0]!.state);
  return sealJson(JSON.stringify(p));
}


/** Every kind of event: twins, replans, crash replays, a key store outage under fail_closed, a slowdown. */
const EVENTFUL = `load: {duration: 20m, rate_per_s: 30}
workload: {twin_probability: 0.1}
idempotency: {scope: call, on_store_down: fail_closed}
runtime: {crash_probability: 0.05}
incidents:
  - {name: down, from: 5m, to: 7m, store: {down: true}}
  - {name: slow, from: 10m, to: 14m, service: {latency_multiplier: 5}}
alerts: [{name: busy, metric: conflicts_409, above: 2}]
`;

describe('a part\'s series and its sums', () => {
  let eventful: string[] = [];
  beforeAll(async () => { eventful = await parts('eventful', EVENTFUL, 2, ['--series', '30s']); });

  it('agree in every part the engine writes, count by count (what the checker relies on)', async () => {
    const plain = await parts('plain', EVENTFUL.replace('scope: call, on_store_down: fail_closed', 'scope: none'), 1, ['--series', '1m']);
    for (const text of [...eventful, ...plain]) {
      const state = (JSON.parse(text) as Partial).runs[0]!.state;
      const counts = decode(state.series!.counts);
      for (const [m, name] of SERIES_NAMES.entries()) {
        let total = 0;
        for (let b = 0; b < state.series!.buckets; b++) total += counts[b * NUM_SERIES + m] as number;
        expect(total, name).toBe(seriesTotalFromSums(name, state));
      }
    }
    expect(() => mergePartials(eventful.map((text, i) => ({ file: `p${i + 1}.json`, text })))).not.toThrow();
  });

  it('a series removed, of another step, or added where the run counts none is refused', async () => {
    expect(refused([eventful[0]!, forged(eventful[1]!, (s) => { delete s.series; })])).toMatch(/^p2\.json, key runs\[0\]\.state\.series: is missing, but the run counts one \(its step 30000 ms/);
    expect(refused([eventful[0]!, forged(eventful[1]!, (s) => { s.series!.step = 60_000; })])).toMatch(/key runs\[0\]\.state\.series\.step: is not 30000/);
    const none = await parts('none', 'load: {duration: 10m, rate_per_s: 30}\n', 1);
    const added = forged(none[0]!, (s) => { s.series = { step: 60_000, buckets: 1, counts: encode(Array(NUM_SERIES).fill(0)) }; });
    expect(refused([added])).toMatch(/key runs\[0\]\.state\.series: is there, but the run counts none/);
  });

  it('counts multiplied, one set to 2^53 - 1, or a bucket added are refused, naming the count that does not add up', () => {
    const counts = (edit: (xs: number[]) => number[], buckets = 0) => forged(eventful[1]!, (s) => {
      s.series!.counts = encode(edit(decode(s.series!.counts)));
      s.series!.buckets += buckets;
    });
    expect(refused([eventful[0]!, counts((xs) => xs.map((x) => x * 100))])).toMatch(/key runs\[0\]\.state\.series\.counts: holds \d+ arrivals in all, but the part's sums count \d+/);
    expect(refused([eventful[0]!, counts((xs) => xs.map((x, i) => (i === SERIES_NAMES.indexOf('timeouts') ? 2 ** 53 - 1 : x)))])).toMatch(/holds \d+ timeouts in all/);
    expect(refused([eventful[0]!, counts((xs) => [...xs, 0, 1, ...Array(NUM_SERIES - 2).fill(0)], 1)])).toMatch(/holds \d+ attempts in all/);
  });

  it('the step asked for is the part\'s own field, sealed: an argument that reads --series is no step, and an edited step is refused', async () => {
    // A file named --series: the replay writes it ./--series, and merge reads no step from the arguments.
    expect(new ReplayLine('run', ['--series', '1m', 'a.yaml'], {}).args).toEqual(['idem-sim', 'run', './--series', '1m', 'a.yaml']);
    const plain = await parts('no-series', 'actions: 300\n', 1);
    const { digest: _d, ...q } = JSON.parse(plain[0]!) as Partial & { digest?: string };
    expect(q.series_step).toBeNull();
    // An argument that reads --series added to the line is no step either: the line must agree with the part's own step.
    expect(() => mergePartials([{ file: 'p1.json', text: sealJson(JSON.stringify({ ...q, replay_args: [...q.replay_args, '--series', '1m'] })) }]))
      .toThrow(/p1\.json, key replay_args: gives a --series that is not the step the part was written with/);
    const { digest: _, ...p } = JSON.parse(eventful[1]!) as Partial & { digest?: string };
    expect(p.series_step).toBe(30_000);
    const relabelled = sealJson(JSON.stringify({ ...p, series_step: 60_000 }));
    expect(refused([eventful[0]!, relabelled])).toMatch(/^p2\.json, key runs\[0\]\.state\.series\.step: is not 60000/);
    // A part of a build before series_step: said so, not called damaged.
    const { series_step: _s, ...older } = p;
    expect(refused([sealJson(JSON.stringify(older))])).toMatch(/^p1\.json, key series_step: is missing: the part was written by an earlier idem-sim/);
    // With the series dropped as well, the parts still disagree on the command.
    const both = sealJson(JSON.stringify({ ...p, series_step: null, runs: p.runs.map((r) => ({ ...r, state: { ...r.state, series: undefined } })) }));
    expect(refused([eventful[0]!, both])).toMatch(/^p2\.json, key runs\[0\]\.state\.series: is missing|^p2\.json: the command differs/);
  });
});

describe('a part\'s scenario', () => {
  let texts: string[] = [];
  beforeAll(async () => { texts = await parts('scenario', EVENTFUL, 2); });

  /** The part with its first run's scenario edited, its fingerprint made to match, sealed again: a forger's edit. */
  function withScenario(text: string, edit: (s: Record<string, any>) => void): string {
    const { digest: _, ...p } = JSON.parse(text) as Partial & { digest?: string };
    const run = p.runs[0]!;
    edit(run.scenario as unknown as Record<string, any>);
    run.fingerprint = sha256(JSON.stringify(echoed(run.scenario)));
    return sealJson(JSON.stringify(p));
  }

  it.each([
    ['an alert on a metric that is no count', (s: Record<string, any>) => { s.alerts[0].metric = 'toString'; }, /alerts\[0\]\.metric: is not one of arrivals, attempts/],
    ['an incident named __proto__', (s: Record<string, any>) => { s.incidents[0].name = '__proto__'; }, /incidents\[0\]\.name: is not a name of letters/],
    ['a name a spreadsheet runs', (s: Record<string, any>) => { s.alerts[0].name = '=HYPERLINK(1)'; }, /alerts\[0\]\.name: is not a name/],
    ['two incidents of one name', (s: Record<string, any>) => { s.incidents[1].name = s.incidents[0].name; }, /incidents\[1\]\.name: the name "down" is already that of incidents\[0\]/],
    ['for: 1e308', (s: Record<string, any>) => { s.alerts[0].for = 1e308; }, /alerts\[0\]\.for: expected a number from 0 to 315360000000/],
    ['a window after the run', (s: Record<string, any>) => { s.incidents[1].from = 3_600_000; s.incidents[1].to = 3_700_000; }, /incidents\[1\]\.from: the window starts at 1h, at or after the run's end/],
    ['more incidents than a scenario may have', (s: Record<string, any>) => { s.incidents = Array.from({ length: 101 }, (_, i) => ({ ...s.incidents[0], name: `w${i}` })); }, /incidents: holds 101 entries, more than the 100 a scenario may have/],
  ])('is held to what a scenario file may say: %s is refused', (_, edit, message) => {
    expect(refused([withScenario(texts[0]!, edit), texts[1]!])).toMatch(new RegExp(`^p1\\.json, key runs\\[0\\]\\.scenario\\.${message.source}`));
  });
});

