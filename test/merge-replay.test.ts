/**
 * A part's replay arguments (part-replay.ts), which merge prints as the replay line, must be a
 * command idem-sim writes: `idem-sim run|sweep`, the runs' own files, the options a shard's line
 * carries in their order, agreeing with the part's seed, step, varied keys and metric. And the
 * names a merged run prints are the ones run gives its files.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealJson } from '../src/shards/part-check.js';
import { mergePartials } from '../src/shards/partial.js';
import { command } from './command-line.js';
import { capturingIo as io, refused } from './merge-helpers.js';
import { formatList, RUN_FORMATS } from '../src/report/formats.js';

const dir = mkdtempSync(join(tmpdir(), 'idem-sim-merge-replay-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
type Loose = Record<string, any>;


/** A part's text after `edit`, sealed again: what a forger writes. */
function resealed(text: string, edit: (p: Loose) => void): string {
  const p = JSON.parse(text) as Loose;
  edit(p);
  delete p['digest'];
  return sealJson(JSON.stringify(p));
}

/** The message merging `texts` (as p1.json, p2.json, ...) is refused with. */

/** The two parts of `run FILES --shard i/2 ...args`. */
async function runParts(files: string[], args: string[] = []): Promise<string[]> {
  const texts: string[] = [];
  for (const i of [1, 2]) {
    const out = join(dir, `part-${i}.json`);
    expect(await command(['run', ...files, '--actions', '20000', ...args, '--shard', `${i}/2`, '--out', out], io())).toBe(0);
    texts.push(readFileSync(out, 'utf8'));
  }
  return texts;
}

describe('a run part\'s replay arguments', () => {
  const a = join(dir, 'a.yaml');
  const b = join(dir, 'b.yaml');
  let parts: string[] = [];
  beforeAll(async () => {
    writeFileSync(a, 'idempotency: {scope: call}\n');
    writeFileSync(b, 'seed: 9\n');
    parts = await runParts([a, b], ['--series', '1m']);
  });
  const both = (edit: (p: Loose) => void) => parts.map((t) => resealed(t, edit));

  it('as run writes them merge, and print as the replay line', () => {
    const merged = mergePartials(parts.map((text, i) => ({ file: `p${i + 1}.json`, text })));
    expect(merged.replayArgs).toEqual(['idem-sim', 'run', a, b, '--actions', '20000', '--series', '1m']);
  });

  const cases: [string, (args: string[]) => string[], RegExp][] = [
    ['a forged command (rm -rf /)', () => ['rm', '-rf', '/'], /key replay_args: does not begin "idem-sim run", the command that writes this part/],
    ['the other command', (x) => ['idem-sim', 'sweep', ...x.slice(2)], /does not begin "idem-sim run"/],
    ['an escape sequence as another file', (x) => [...x.slice(0, 2), '\u001b]0;PWNED\u0007', ...x.slice(3)], /key replay_args: does not name the runs' own files, in order/],
    ['a file more', (x) => [...x.slice(0, 4), '/etc/passwd', ...x.slice(4)], /does not name the runs' own files/],
    ['an option a shard does not write', (x) => [...x, '--out', 'x.json'], /holds an argument that is not an option a shard's replay line carries/],
    ['options out of order', (x) => [...x.slice(0, 4), '--series', '1m', '--actions', '20000'], /gives --actions out of the order idem-sim writes/],
    ['an option without its value', (x) => [...x, '--seed'], /gives --seed out of the order|ends with --seed, without its value/],
    ['a --set idem-sim would not take', (x) => [...x.slice(0, 4), '--set', 'no equals sign', ...x.slice(4)], /gives a --set or --actions that idem-sim would not take/],
    ['a seed the runs did not have', (x) => [...x.slice(0, 6), '--seed', '1', ...x.slice(6)], /gives a --seed that is not the runs' seed/],
    ['another series step', (x) => [...x.slice(0, -1), '5m'], /gives a --series that is not the step the part was written with/],
  ];
  for (const [what, edit, message] of cases) {
    it(`refuses ${what}`, () => expect(refused(both((p) => { p['replay_args'] = edit(p['replay_args'] as string[]); }))).toMatch(message));
  }

  it('--format html of a run\'s parts is refused, naming every format a run has (from the one list)', async () => {
    parts.forEach((t, i) => writeFileSync(join(dir, `h${i + 1}.json`), t));
    await expect(command(['merge', ...parts.map((_, i) => join(dir, `h${i + 1}.json`)), '--format', 'html'], io()))
      .rejects.toThrow(`Merge them with --format ${formatList(RUN_FORMATS)};`);
    expect(formatList(RUN_FORMATS)).toBe('table, json or csv');
  });

  it('refuses a run name run would not give its file (a bidirectional override, or another name)', () => {
    expect(refused(both((p) => { p['runs'][0].name = 'PASS \u202eLIAF'; }))).toMatch(/key runs\[0\]\.name: is not in the form idem-sim writes/);
    expect(refused(both((p) => { p['runs'][0].name = 'production'; }))).toMatch(/key runs\[0\]\.name: is not the name run gives its file/);
  });

  it('a hostile file name of the runs\' own is merged, and quoted in the replay line as run quotes it', async () => {
    const hostile = join(dir, '-\u001b[31mred.yaml');
    writeFileSync(hostile, 'seed: 3\n');
    const texts = await runParts([hostile]);
    const files = texts.map((text, i) => { const f = join(dir, `h${i + 1}.json`); writeFileSync(f, text); return f; });
    const w = io();
    expect(await command(['merge', ...files], w)).toBe(0);
    expect(w.out()).toContain(`replay: idem-sim run $'${dir}/-\\x1b[31mred.yaml' --actions 20000 --seed 3`);
    expect(w.out()).not.toContain('\u001b');
  });
});

describe('a sweep part\'s replay arguments', () => {
  const s = join(dir, 'sweep.yaml');
  const parts: string[] = [];
  beforeAll(async () => {
    writeFileSync(s, 'actions: 200\nsweep:\n  vary:\n    idempotency.scope: [none, call]\n');
    for (const i of [1, 2]) {
      const out = join(dir, `w${i}.json`);
      expect(await command(['sweep', s, '--vary', 'client.retries=1,2', '--metric', 'lost_per_1000', '--shard', `${i}/2`, '--out', out], io())).toBe(0);
      parts.push(out);
    }
  });
  const write = (edit: (args: string[]) => string[]) => parts.map((f, i) => {
    const out = join(dir, `bad-${i + 1}.json`);
    writeFileSync(out, resealed(readFileSync(f, 'utf8'), (p) => { p['replay_args'] = edit(p['replay_args'] as string[]); }));
    return out;
  });

  it('as sweep writes them merge, and print as the replay line', async () => {
    const w = io();
    expect(await command(['merge', ...parts], w)).toBe(0);
    expect(w.out()).toContain(`replay: idem-sim sweep ${s} --vary client.retries=1,2 --seed 1 --metric lost_per_1000\n`);
  });

  const cases: [string, (args: string[]) => string[], RegExp][] = [
    ['a forged command (rm -rf /)', () => ['rm', '-rf', '/'], /w?bad-1\.json, key replay_args: does not begin "idem-sim sweep"/],
    ['another scenario file', (x) => [x[0]!, x[1]!, '/tmp/other.yaml', ...x.slice(3)], /does not name the sweep's scenario file/],
    ['a --vary of a key not varied', (x) => [...x.slice(0, 3), '--vary', 'client.timeout=1s,2s', ...x.slice(3)], /gives a --vary of a key the sweep does not vary/],
    ['another seed', (x) => x.map((v, i) => (x[i - 1] === '--seed' ? '2' : v)), /gives a --seed that is not the sweep's/],
    ['another metric', (x) => x.map((v, i) => (x[i - 1] === '--metric' ? 'duplicates_per_1000' : v)), /gives a --metric that is not the sweep's/],
    ['a --series the part was not written with', (x) => [...x, '--series', '1m'], /gives a --series that is not the step the part was written with/],
    ['a --find the part was not written with', (x) => [...x, '--find', 'stable==true'], /gives a --find that is not the sweep's/],
    ['an option a shard\'s line never carries', (x) => [...x, '--max-points', '5'], /holds an argument that is not an option a shard's replay line carries/],
  ];
  for (const [what, edit, message] of cases) {
    it(`refuses ${what}`, async () => { await expect(command(['merge', ...write(edit)], io())).rejects.toThrow(message); });
  }
});
