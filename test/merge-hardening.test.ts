/** `merge` checks every part fully (issue 12, item 10): in process, on parts written by run and sweep --shard. */
import { C, NUM_COUNTERS } from '../src/model/counters.js';
import { mkdtempSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_PART_BYTES, sealIntact, sealJson, sha256 } from '../src/shards/part-check.js';
import { PARTIAL_FORMAT, scenarioFingerprint, sealPartial, shardPrimaries, type Partial } from '../src/shards/partial.js';
import { resolvedScenario } from '../src/report/json.js';
import { command } from './command-line.js';
import { DEFAULT_SCENARIO } from '../src/model/types.js';
import { capturingIo as io, refused } from './merge-helpers.js';

/** Bytes read from files through readSync (how src/io/files.ts reads a part): counted, not timed. */
const read = vi.hoisted(() => ({ bytes: 0 }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const readSync = ((...args: Parameters<typeof fs.readSync>) => {
    const n = fs.readSync(...args);
    read.bytes += n;
    return n;
  }) as typeof fs.readSync;
  return { ...fs, readSync };
});

const dir = mkdtempSync(join(tmpdir(), 'idem-sim-merge-hardening-'));
/** A part's JSON, to edit freely. */
type Loose = Record<string, any>;



/** 40,000 actions: three chunks, so shards 1 and 2 own as many actions (16,384) and shard 3 fewer (7,232). */
const SCENARIO = join(dir, 's.yaml');
const RUN = ['run', SCENARIO, '--actions', '40000'];
const texts: string[] = [];
let whole = '';

beforeAll(async () => {
  writeFileSync(SCENARIO, 'idempotency: {retention: 2s}\n');
  for (const i of [1, 2, 3]) {
    const out = join(dir, `p${i}.json`);
    expect(await command([...RUN, '--shard', `${i}/3`, '--out', out], io())).toBe(0);
    texts.push(readFileSync(out, 'utf8'));
  }
  const w = io();
  await command([...RUN, '--json'], w);
  whole = w.out();
});

const parsed = (i: number): Partial & { digest?: string } => JSON.parse(texts[i] as string) as Partial;
/** Sealed again after an edit: what a careless script (or a forger) writes; the field checks must still refuse it. */
const reseal = (p: Partial & { digest?: string }): string => {
  const { digest: _, ...rest } = p;
  return sealJson(JSON.stringify(rest));
};
const edited = (i: number, edit: (p: Partial) => void): string => {
  const p = parsed(i);
  edit(p);
  return reseal(p);
};
const withPart3 = (text: string) => [texts[0] as string, texts[1] as string, text];

describe('parts are sealed', () => {
  it('run --shard writes format 2 with a digest that matches, and merge gives the unsharded run', async () => {
    expect(parsed(0).idem_sim_partial).toBe(PARTIAL_FORMAT);
    expect(texts.map(sealIntact)).toEqual([true, true, true]);
    const w = io();
    expect(await command(['merge', ...[1, 2, 3].map((i) => join(dir, `p${i}.json`)), '--json'], w)).toBe(0);
    expect(w.out()).toBe(whole);
  });

  it('sealPartial adds the digest as the last field, and its text is what run writes', () => {
    const { digest: _, ...p } = parsed(0);
    const sealed = sealPartial(p);
    expect(Object.keys(sealed).at(-1)).toBe('digest');
    expect(`${JSON.stringify(sealed)}\n`).toBe(texts[0]);
  });

  it('a hand-edited part (digest left) is refused, naming the file and saying to re-run the shard', () => {
    const m = refused(withPart3((texts[2] as string).replace('"primaries":7232', '"primaries":7233')));
    expect(m).toContain('p3.json, key digest: does not match the content');
    expect(m).toContain('altered or damaged');
    expect(m).toContain('run that shard again');
    expect(m).not.toContain('7233');
  });

  it('a truncated part and one without its digest are refused', () => {
    expect(refused(withPart3((texts[2] as string).slice(0, 500)))).toContain('p3.json: is not JSON');
    const { digest: _, ...noDigest } = parsed(2);
    expect(refused(withPart3(JSON.stringify(noDigest)))).toContain('key digest: is missing');
  });

  it('a part of format 1 is refused with the reason', () => {
    const { digest: _, ...p } = parsed(2);
    expect(refused(withPart3(JSON.stringify({ ...p, idem_sim_partial: 1 })))).toContain('earlier idem-sim (partial format 1');
  });
});

describe('every field is checked, even in a part sealed again', () => {
  const cases: [string, (p: Partial) => void, string][] = [
    ['a negative count', (p) => { (p.runs[0]!.state.sum as number[])[0] = -43_000; }, 'runs[0].state.sum[0]: expected a whole number from 0'],
    ['a fractional count', (p) => { p.runs[0]!.state.actions = 7232.5; }, 'runs[0].state.actions: expected a whole number'],
    ['a string count', (p) => { (p.runs[0]!.state as unknown as Record<string, unknown>)['primaries'] = '7232'; }, 'runs[0].state.primaries: expected a whole number'],
    ['a null', (p) => { (p.runs[0]!.state as unknown as Record<string, unknown>)['callLatency'] = null; }, 'runs[0].state.callLatency: expected an object'],
    ['a short array', (p) => { p.runs[0]!.state.sumSq.splice(-3); }, `runs[0].state.sumSq: expected ${NUM_COUNTERS} entries, found ${NUM_COUNTERS - 3}`],
    ['a sum of squares below its sum', (p) => { p.runs[0]!.state.sumSq[10] = 0; }, 'runs[0].state.sumSq[10]: is below its sum'],
    ['twins below primaries', (p) => { p.runs[0]!.state.actions = 1; }, 'runs[0].state.actions: is below primaries'],
    ['a grid at cell 10^9', (p) => { p.runs[0]!.state.grid.base = 1e9; }, 'runs[0].state.grid.base: expected a whole number from 0 to 16777216'],
    ['a grid that ends records it never started', (p) => { p.runs[0]!.state.grid.diff = Buffer.from(new Int32Array([-1, 1]).buffer).toString('base64'); }, 'grid.diff: ends more records than it starts'],
    ['bins at key 10^9', (p) => { p.runs[0]!.state.callLatency.offset = 1e9; }, 'runs[0].state.callLatency.offset: expected a whole number from -131072 to 131072'],
    ['a grid step that is not the scenario\'s', (p) => { p.runs[0]!.grid_step = 1; }, 'runs[0].grid_step: is not the grid step'],
    ['an unknown field', (p) => { (p.runs[0] as unknown as Record<string, unknown>)['extra'] = 1; }, 'runs[0]: has a field idem-sim does not write (extra)'],
    ['a shard count of 5·10^7', (p) => { p.shard.count = 5e7; }, 'shard.count: expected a whole number from 1 to 10000'],
    ['a scenario edited, its fingerprint kept', (p) => { p.runs[0]!.scenario.network.reply_loss = 0.5; }, 'runs[0].fingerprint: is not the hash of the scenario the part holds'],
    ['a scenario with a string for a number', (p) => { (p.runs[0]!.scenario.client as unknown as Record<string, unknown>)['timeout'] = '1s'; }, 'runs[0].scenario.client.timeout: expected a finite number'],
    ['a scenario missing a key', (p) => { delete (p.runs[0]!.scenario as unknown as Record<string, unknown>)['load']; }, 'runs[0].scenario.load: is missing'],
  ];
  for (const [what, edit, message] of cases) {
    it(`refuses ${what}`, () => expect(refused(withPart3(edited(2, edit)))).toContain(message));
  }

  it('refuses control characters in the names, seeds and warnings a part carries (they would reach the terminal)', () => {
    const esc = '\u001b]0;TITLE\u0007\u001b[31m';
    expect(refused(withPart3(edited(2, (p) => { (p.runs[0] as { name: string }).name = esc; })))).toContain('key runs[0].name: is not in the form idem-sim writes');
    expect(refused(withPart3(edited(2, (p) => { (p.runs[0] as { seed: string }).seed = `1${esc}`; })))).toContain('key runs[0].seed: is not in the form idem-sim writes');
    expect(refused(withPart3(edited(2, (p) => { (p.runs[0] as unknown as { warnings: string[] }).warnings = [esc]; })))).toContain('key runs[0].warnings[0]: is not in the form idem-sim writes');
  });

  it('reads a part written before the `throttled` counter, or before the four of "Inbound delivery", with them at 0: the merged output is the same', async () => {
    for (const counter of ['throttled', 'duplicates_redelivery'] as const) {
      const cut = NUM_COUNTERS - C[counter];
      const old = edited(2, (p) => { p.runs[0]!.state.sum.splice(-cut); p.runs[0]!.state.sumSq.splice(-cut); });
      writeFileSync(join(dir, 'p3-old.json'), old);
      const w = io();
      expect(await command(['merge', join(dir, 'p1.json'), join(dir, 'p2.json'), join(dir, 'p3-old.json'), '--json'], w), counter).toBe(0);
      expect(w.out()).toBe(whole);
    }
    // One counter short of the delivery counters is no earlier build's part.
    expect(refused(withPart3(edited(2, (p) => { p.runs[0]!.state.sum.pop(); })))).toContain(`runs[0].state.sum: expected ${NUM_COUNTERS} entries, found ${NUM_COUNTERS - 1}`);
  });

  it('refuses a part numbered beyond the count', () => {
    const m = refused([...withPart3(texts[2] as string), edited(2, (p) => { p.shard.index = 4; })]);
    expect(m).toContain('p4.json, key shard.index: expected a whole number from 1 to 3');
  });

  it('refuses a part relabelled as a shard that owns other chunks, and a copy relabelled as one that owns as many', () => {
    expect(shardPrimaries(40_000, { index: 1, count: 3 })).toBe(shardPrimaries(40_000, { index: 2, count: 3 }));
    const asThird = edited(0, (p) => { p.shard.index = 3; });
    expect(refused([texts[1] as string, texts[2] as string, asThird])).toContain('p3.json, key runs[0].state.primaries: is not the number of actions in the chunks of shard 3/3');
    const asSecond = edited(0, (p) => { p.shard.index = 2; });
    expect(refused([texts[0] as string, asSecond, texts[2] as string])).toContain('p2.json: holds the same sums as p1.json');
  });

  it('echoes no value from the part', () => {
    const m = refused(withPart3(edited(2, (p) => { p.runs[0]!.seed = 'SECRET_CANARY'; p.version = 'SECRET_CANARY'; })));
    expect(m).toContain('the idem-sim version differs');
    expect(m).not.toContain('SECRET_CANARY');
  });
});

describe('fingerprints', () => {
  it('are the hash of the scenario a part holds; with empirical data, the data\'s hash too', () => {
    const plain = scenarioFingerprint(DEFAULT_SCENARIO);
    expect(plain).toMatch(/^[0-9a-f]{64}$/);
    const withData = { ...DEFAULT_SCENARIO, service: { ...DEFAULT_SCENARIO.service, latency: { dist: 'empirical' as const, file: 'x.txt', values: [1, 2, 3] } } };
    const other = { ...withData, service: { ...withData.service, latency: { ...withData.service.latency, values: [1, 2, 4] } } };
    const a = scenarioFingerprint(withData);
    expect(a).toMatch(/^[0-9a-f]{64}:[0-9a-f]{64}$/);
    expect(a.slice(0, 64)).toBe(sha256(JSON.stringify(resolvedScenario(withData))));
    expect(scenarioFingerprint(other)).not.toBe(a);
    expect(scenarioFingerprint(other).slice(0, 64)).toBe(a.slice(0, 64));
  });
});

describe('sizes and counts', () => {
  it('a part over 64 MiB is refused before it is read (a sparse file: no time, no memory)', async () => {
    const big = join(dir, 'big.json');
    writeFileSync(big, '');
    truncateSync(big, MAX_PART_BYTES + 1);
    read.bytes = 0;
    await expect(command(['merge', big], io())).rejects.toThrow('over the limit of 64 MiB');
    expect(read.bytes).toBe(0);
    const small = join(dir, 'small.json');
    writeFileSync(small, '{"not": 1}');
    await expect(command(['merge', small], io())).rejects.toThrow();
    expect(read.bytes).toBe(10); // the count sees a part that is read
  });

  it('more files than shards can be is refused before any is read', async () => {
    const files = Array.from({ length: 10_001 }, (_, i) => join(dir, `missing-${i}.json`));
    await expect(command(['merge', ...files], io())).rejects.toThrow('10,001 parts given, more than a run or sweep can have (at most 10,000 shards)');
  });

  it('the missing shards of 10,000 are named in one short line', async () => {
    const out = join(dir, 'one-of-many.json');
    expect(await command([...RUN, '--shard', '1/10000', '--out', out], io())).toBe(0);
    const m = refused([readFileSync(out, 'utf8')]);
    expect(m).toContain('shards 2/10000, 3/10000');
    expect(m).toContain('11/10000 and 9,989 more missing');
    expect(m.length).toBeLessThan(300);
  });
});

describe('sweep parts', () => {
  const S = join(dir, 'sweep.yaml');
  const parts: string[] = [];
  let wholeSweep = '';
  beforeAll(async () => {
    writeFileSync(S, 'actions: 200\nidempotency: {retention: 2s}\n');
    const vary = ['--vary', 'client.retries=1,2,3'];
    for (const i of [1, 2]) {
      const out = join(dir, `w${i}.json`);
      expect(await command(['sweep', S, ...vary, '--shard', `${i}/2`, '--out', out], io())).toBe(0);
      parts.push(out);
    }
    const w = io();
    await command(['sweep', S, ...vary, '--format', 'csv'], w);
    wholeSweep = w.out();
  });
  const write = (name: string, edit: (p: Loose) => void, from = 0): string => {
    const p = JSON.parse(readFileSync(parts[from] as string, 'utf8')) as Record<string, unknown>;
    edit(p);
    const { digest: _, ...rest } = p;
    const file = join(dir, name);
    writeFileSync(file, sealJson(JSON.stringify(rest)));
    return file;
  };

  it('are sealed, and merge into the unsharded sweep', async () => {
    expect(parts.map((f) => sealIntact(readFileSync(f, 'utf8')))).toEqual([true, true]);
    const w = io();
    expect(await command(['merge', ...parts, '--format', 'csv'], w)).toBe(0);
    expect(w.out()).toBe(wholeSweep);
  });

  it('refuse a part relabelled as the other shard: it holds that shard\'s points, not its own', async () => {
    const relabelled = write('w-relabelled.json', (p) => { p['shard'].index = 2; });
    await expect(command(['merge', relabelled, parts[0] as string], io())).rejects.toThrow('w-relabelled.json, key points: expected 2 entries, found 1');
  });

  it('refuse a point out of place, an edited point, a negative count and a huge grid', async () => {
    const cases: [(p: Loose) => void, string, number][] = [
      [(p) => { p['points'][0].index = 0; }, 'points[0].index: is not 1', 1],
      [(p) => { p['points'][0].scenario.client.retries = 9; }, 'points[0].fingerprint: is not the hash', 1],
      [(p) => { p['points'][0].state.sum[0] = -1; }, 'points[0].state.sum[0]: expected a whole number from 0', 1],
      [(p) => { p['points'][0].state.primaries = 100; }, 'points[0].state.primaries: is not the scenario\'s actions', 1],
      [(p) => { p['points'][0].params = {}; }, 'points[0].params.client.retries: is missing', 1],
      [(p) => { p['sweep'].points = 1e9; }, 'sweep.points: expected a whole number from 1 to 50000', 1],
      [(p) => { p['sweep'].metric = 'constructor'; }, 'sweep.metric: is not a reading idem-sim knows', 1],
      // Labelled with another point's value (a swap of labels keeps every digest and fingerprint).
      [(p) => { p['points'][0].params['client.retries'] = 1; }, 'points[0].params: holds a value of client.retries that is not its scenario\'s', 1],
      [(p) => { p['sweep'].paths = ['client.retries\u001b[2J']; p['sweep'].log_paths = []; }, 'sweep.paths: holds a key path idem-sim would not write', 1],
      [(p) => { p['version'] = '0.1.0\u001b]0;PWN\u0007'; }, 'version: is not in the form idem-sim writes', 1],
    ];
    for (const [edit, message, from] of cases) {
      const bad = write('w-bad.json', edit, from);
      await expect(command(['merge', parts[0] as string, bad], io())).rejects.toThrow(message);
    }
  });
});
