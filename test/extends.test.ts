/**
 * `extends:` (scenario/extends.ts): a scenario that starts from other files, parsed with a fake
 * reader of files held in memory, and the CLI's reader (io/files.ts baseFiles) on real files.
 * Through the binary: extends.e2e.test.ts.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadScenario } from '../src/cli/shared/load.js';
import { MAX_TOKENS } from '../src/scenario/document.js';
import { InputError, type Origin } from '../src/scenario/errors.js';
import { MAX_EXTENDS_FILES, merge, resolveExtends, type BaseFiles } from '../src/scenario/extends.js';
import { parseScenario, readDocument, type Override } from '../src/scenario/parse.js';

/** Files in memory, read as the CLI reads them: relative to the file that names them. */
function memory(files: Record<string, string>, first = 'a.yaml'): BaseFiles & { id: string } {
  return {
    id: first,
    budget: { left: MAX_TOKENS },
    read(path: string, from: string, origin: Origin) {
      const source = posix.join(posix.dirname(from), path);
      const text = files[source];
      if (text === undefined) throw new InputError(origin, 'extends', `the base scenario file ${source} does not exist`, 'Check the path.');
      return { source, id: source, text };
    },
  };
}

/** Parses `files['a.yaml']` with its chain. */
function parse(files: Record<string, string>, overrides: readonly Override[] = []) {
  return parseScenario(files['a.yaml'] as string, 'a.yaml', overrides, memory(files));
}

function refusal(f: () => unknown): InputError {
  try { f(); } catch (e) { if (e instanceof InputError) return e; throw e; }
  throw new Error('no error thrown');
}

const set = (arg: string): Override => {
  const [path, text] = arg.split('=') as [string, string];
  return { path: path.split('.'), text, option: `--set ${arg}` };
};

describe('merging a chain', () => {
  it('starts from the base: mappings merge key by key, deeply, and this file\'s keys win', () => {
    const s = parse({
      'a.yaml': 'extends: base.yaml\nclient: {retries: 1, backoff: {max: 2s}}\n',
      'base.yaml': 'client:\n  timeout: 2s\n  retries: 5\n  backoff: {base: 50ms, max: 10s}\nidempotency: {scope: intent, retention: 2h}\n',
    }).scenario;
    expect(s.client).toMatchObject({ timeout: 2000, retries: 1, backoff: { base: 50, max: 2000, multiplier: 2 } });
    expect(s.idempotency).toMatchObject({ scope: 'intent', retention: 7_200_000 });
  });

  it('a list or a scalar replaces the base\'s whole', () => {
    const s = parse({
      'a.yaml': 'extends: base.yaml\nload: {profile: [{at: 1m, rate_per_s: 5}]}\nactions: 1000\n',
      'base.yaml': 'actions: 99\nload: {rate_per_s: 7, profile: [{at: 1m, rate_per_s: 1}, {at: 2m, rate_per_s: 2}]}\n',
    }).scenario;
    expect(s.load.profile).toEqual([{ at: 60_000, rate_per_s: 5 }]);
    expect(s.load.rate_per_s).toBe(7);
    expect(s.actions).toBe(1000);
  });

  it('a latency distribution of another form replaces the base\'s; one of the same form merges', () => {
    const base = 'service:\n  latency: {median: 200ms, sigma: 0.2}\n';
    expect(parse({ 'a.yaml': 'extends: base.yaml\nservice: {latency: {dist: constant, value: 1s}}\n', 'base.yaml': base }).scenario.service.latency)
      .toEqual({ dist: 'constant', value: 1000 });
    expect(parse({ 'a.yaml': 'extends: base.yaml\nservice: {latency: {median: 500ms}}\n', 'base.yaml': base }).scenario.service.latency)
      .toMatchObject({ dist: 'lognormal', median: 500, sigma: 0.2 });
    // Percentiles against median and sigma: two forms of the lognormal, which do not mix.
    expect(parse({ 'a.yaml': 'extends: base.yaml\nservice: {latency: {p50: 100ms, p99: 1s}}\n', 'base.yaml': base }).scenario.service.latency)
      .toMatchObject({ dist: 'lognormal', median: 100 });
  });

  it('follows a chain relative to each file, and lists the files it read, nearest first', () => {
    const parsed = parse({
      'a.yaml': 'extends: lib/b.yaml\nactions: 10\n',
      'lib/b.yaml': 'extends: ../base/c.yaml\nclient: {retries: 0}\n',
      'base/c.yaml': 'client: {retries: 7, timeout: 3s}\nidempotency: {scope: call}\n',
    });
    expect(parsed.scenario.client).toMatchObject({ retries: 0, timeout: 3000 });
    expect(parsed.scenario.idempotency.scope).toBe('call');
    expect(parsed.bases).toEqual(['lib/b.yaml', 'base/c.yaml']);
  });

  it('keeps a key named __proto__ an own key (the parser refuses it first)', () => {
    const merged = merge({}, JSON.parse('{"__proto__": {"actions": 7}}') as Record<string, unknown>, []);
    expect(Object.hasOwn(merged, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>)['actions']).toBeUndefined();
  });
});

describe('what carries over from a base', () => {
  const files = {
    'a.yaml': 'extends: base.yaml\nidempotency: {scope: intent}\n',
    'base.yaml': [
      'description: the base', 'hint: the base\'s hint', 'seed: 42',
      'expect:', '  duplicates_per_1000: "< 1"', 'sweep:', '  vary: {client.retries: [0, 1]}', '',
    ].join('\n'),
  };

  it('seed, expect: and sweep: carry over, each located in the base; description and hint do not', () => {
    const parsed = parse(files);
    expect(parsed.seed).toBe('42');
    expect(parsed.expectations.map((e) => [e.metric, e.origin])).toEqual([['duplicates_per_1000', { source: 'base.yaml', line: 5, col: 3 }]]);
    expect(parsed.sweep?.vary.map((v) => [v.path, v.origin.source, v.origin.line])).toEqual([['client.retries', 'base.yaml', 7]]);
    expect(parsed.description).toBeUndefined();
    expect(parsed.hint).toBeUndefined();
  });

  it('this file\'s own description, seed and expectations win', () => {
    const parsed = parse({ ...files, 'a.yaml': 'extends: base.yaml\ndescription: mine\nseed: 7\nexpect: {duplicates_per_1000: "< 5", lost_per_1000: "== 0"}\n' });
    expect([parsed.description, parsed.seed]).toEqual(['mine', '7']);
    expect(parsed.expectations.map((e) => [e.metric, e.text, e.origin?.source])).toEqual([
      ['duplicates_per_1000', '< 5', 'a.yaml'], ['lost_per_1000', '== 0', 'a.yaml'],
    ]);
  });
});

describe('where a key came from', () => {
  it('an error in a base names the base\'s file and line, three files down', () => {
    const e = refusal(() => parse({
      'a.yaml': 'extends: b.yaml\nactions: 10\n',
      'b.yaml': 'extends: c.yaml\n',
      'c.yaml': 'idempotency: {scope: intent}\nclient:\n  timeout: 2\n',
    }));
    expect([e.origin, e.keyPath]).toEqual([{ source: 'c.yaml', line: 3, col: 12 }, 'client.timeout']);
    expect(e.message).toMatch(/write 2s or 2ms/);
  });

  it('an unknown key of a base is placed in the base; one of this file, here', () => {
    const base = 'idempotency:\n  scop: intent\n';
    expect(refusal(() => parse({ 'a.yaml': 'extends: base.yaml\n', 'base.yaml': base })).origin).toEqual({ source: 'base.yaml', line: 2, col: 3 });
    expect(refusal(() => parse({ 'a.yaml': 'extends: base.yaml\nclient: {retrys: 2}\n', 'base.yaml': 'client: {retries: 1}\n' })).origin)
      .toEqual({ source: 'a.yaml', line: 2, col: 10 });
  });

  it('a warning of a setting with no effect names the line that wrote it', () => {
    const parsed = parse({
      'a.yaml': 'extends: base.yaml\nruntime: {crash_probability: 0}\n',
      'base.yaml': 'runtime:\n  crash_probability: 0.1\n  resume_delay: {min: 1m, max: 5m}\n',
    });
    expect(parsed.warnings.map((w) => [w.keyPath, w.origin?.source, w.origin?.line])).toEqual([['runtime.resume_delay', 'base.yaml', 3]]);
  });

  it('--set applies after the whole chain, and is blamed for what it set', () => {
    const files = { 'a.yaml': 'extends: base.yaml\n', 'base.yaml': 'client: {retries: 5, timeout: 2s}\n' };
    expect(parse(files, [set('client.retries=1')]).scenario.client).toMatchObject({ retries: 1, timeout: 2000 });
    const e = refusal(() => parse(files, [set('client.timeout=3')]));
    expect(e.origin).toEqual({ source: '--set client.timeout=3' });
  });
});

describe('refused', () => {
  it('a cycle, with the chain printed, at the extends: that closes it', () => {
    const e = refusal(() => parse({ 'a.yaml': 'extends: b.yaml\n', 'b.yaml': 'actions: 5\nextends: a.yaml\n' }));
    expect(e.message).toContain('comes back to a file already in the chain: a.yaml -> b.yaml -> a.yaml');
    expect(e.origin).toEqual({ source: 'b.yaml', line: 2, col: 10 });
    expect(refusal(() => parse({ 'a.yaml': 'extends: a.yaml\n' })).message).toContain('a.yaml -> a.yaml');
  });

  it(`a chain of more than ${MAX_EXTENDS_FILES} files`, () => {
    const files: Record<string, string> = { 'a.yaml': 'extends: f1.yaml\n' };
    for (let i = 1; i <= MAX_EXTENDS_FILES; i++) files[`f${i}.yaml`] = `extends: f${i + 1}.yaml\n`;
    files[`f${MAX_EXTENDS_FILES + 1}.yaml`] = 'actions: 5\n';
    const e = refusal(() => parse(files));
    expect(e.message).toContain(`makes a chain of more than ${MAX_EXTENDS_FILES} files (a.yaml -> f1.yaml`);
    expect(e.origin?.source).toBe(`f${MAX_EXTENDS_FILES - 1}.yaml`);
    // Eight files, this one included, are allowed.
    files[`f${MAX_EXTENDS_FILES - 1}.yaml`] = 'actions: 5\n';
    expect(parse(files).scenario.actions).toBe(5);
  });

  it('extends: that is not one file name, a base that is not a mapping, a base that is missing', () => {
    expect(refusal(() => parse({ 'a.yaml': 'extends: [b.yaml, c.yaml]\n' })).message).toMatch(/^a\.yaml:1:10, key extends: got \["b\.yaml","c\.yaml"\], expected the name of one scenario file/);
    expect(refusal(() => parse({ 'a.yaml': 'extends:\n' })).message).toContain('got an empty value');
    expect(refusal(() => parse({ 'a.yaml': 'extends: b.yaml\n', 'b.yaml': '- 1\n- 2\n' })).message).toMatch(/^b\.yaml:1:1: the file extended is not a mapping/);
    expect(refusal(() => parse({ 'a.yaml': 'actions: 5\nextends: nope.yaml\n' })).origin).toEqual({ source: 'a.yaml', line: 2, col: 10 });
  });

  it('--set extends=..., which would come after the chain is read', () => {
    expect(refusal(() => parse({ 'a.yaml': 'actions: 5\n' }, [set('extends=b.yaml')])).message).toContain('cannot be set with --set');
  });

  it('extends: where no file can be read (the lab\'s page)', () => {
    const e = refusal(() => parseScenario('extends: base.yaml\n', 'page.yaml'));
    expect(e.message).toContain('names another file, which cannot be read here');
  });

  it('a chain whose files hold more than one scenario\'s tokens together', () => {
    // Each base holds 60,001 tokens (the key, `:`, `[`, 30,000 values and their commas less one, ...): one fits, two do not.
    const big = `x: [${'1,'.repeat(29_999)}1]\n`;
    const e = refusal(() => parse({ 'a.yaml': 'extends: b.yaml\n', 'b.yaml': `extends: c.yaml\n${big}`, 'c.yaml': big }));
    expect(e.origin?.source).toBe('c.yaml');
    expect(e.message).toContain(`with the files before it in its chain of extends:, more than ${MAX_TOKENS.toLocaleString('en-US')}`);
  });
});

describe('resolveExtends, for a mapping inside another file (an agent\'s tool)', () => {
  it('reads relative to the file that holds the mapping and locates keys in it or in the base', () => {
    const agent = readDocument('tools:\n  - scenario:\n      extends: tools/refund.yaml\n      client: {retries: 1}\n', 'agents/agent.yaml');
    const at = ['tools', 0, 'scenario'];
    const mapping = (agent.document as { tools: { scenario: Record<string, unknown> }[] }).tools[0]?.scenario as Record<string, unknown>;
    const files = memory({ 'agents/tools/refund.yaml': 'client: {retries: 4, timeout: 2s}\n' }, 'agents/agent.yaml');
    const chain = resolveExtends(mapping, (p, k) => agent.locate([...at, ...p], k), { source: 'agents/agent.yaml', id: 'agents/agent.yaml' }, files);
    expect(chain.document).toEqual({ client: { retries: 1, timeout: '2s' } });
    expect(chain.bases).toEqual(['agents/tools/refund.yaml']);
    expect(chain.locate(['client', 'retries'], true)).toEqual({ source: 'agents/agent.yaml', line: 4, col: 16 });
    expect(chain.locate(['client', 'timeout'], true)).toEqual({ source: 'agents/tools/refund.yaml', line: 1, col: 22 });
  });
});

describe('the CLI\'s reader of base files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'idem-sim-extends-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (file: string, text: string) => { mkdirSync(dirname(join(dir, file)), { recursive: true }); writeFileSync(join(dir, file), text); return join(dir, file); };

  it('reads a data file named in a base relative to the base', () => {
    write('lib/lat.txt', '100\n200\n');
    write('lib/base.yaml', 'service:\n  latency: {dist: empirical, file: lat.txt}\n');
    const loaded = loadScenario(write('run.yaml', 'extends: lib/base.yaml\nactions: 10\n'), []);
    expect(loaded.scenario.service.latency).toMatchObject({ dist: 'empirical', file: 'lat.txt', values: [100, 200] });
  });

  it('refuses a base outside the scenario\'s directory unless allowed, and a cycle through a link', () => {
    write('outside.yaml', 'actions: 5\n');
    const inner = write('in/run.yaml', 'extends: ../outside.yaml\n');
    expect(refusal(() => loadScenario(inner, [])).message).toMatch(/in\/run\.yaml:1:10, key extends: the base scenario file .*outside\.yaml lies outside the scenario file's directory/);
    expect(loadScenario(inner, [], { allowOutside: true }).scenario.actions).toBe(5);
    write('loop/a.yaml', 'extends: link.yaml\n');
    symlinkSync(join(dir, 'loop/a.yaml'), join(dir, 'loop/link.yaml'));
    expect(refusal(() => loadScenario(join(dir, 'loop/a.yaml'), [])).message).toContain('a.yaml -> ');
  });

  it('refuses a base under /proc, and one that is missing, at the line that names it', () => {
    const proc = write('p.yaml', 'extends: /proc/self/environ\n');
    expect(refusal(() => loadScenario(proc, [], { allowOutside: true })).message).toContain('is in /proc, a view of the system');
    const missing = write('m.yaml', 'actions: 5\nextends: none.yaml\n');
    expect(refusal(() => loadScenario(missing, [])).message).toMatch(/m\.yaml:2:10, key extends: the base scenario file .*none\.yaml does not exist/);
  });
});
