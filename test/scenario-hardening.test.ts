/**
 * Hostile scenario text and --set values (issue 12, items 5, 8 and 9): each is refused with an
 * InputError that names where and what, and nothing reaches Object.prototype or the engine.
 */
import { createRequire } from 'node:module';
import { describe, expect, it, vi } from 'vitest';
import { CHUNK_ACTIONS } from '../src/engine/plan.js';
import { forbiddenPart, MAX_DEPTH, MAX_TOKENS } from '../src/scenario/document.js';
import { InputError } from '../src/scenario/errors.js';
import { MAX_DURATION_MS, MAX_RECORD_BYTES, MIN_RATE_PER_S } from '../src/model/limits.js';
import { parseScenario, type Override } from '../src/scenario/parse.js';
import { overlay } from '../src/scenario/presets.js';

const set = (path: (string | number)[], text: string): Override => ({ path, text, option: `--set ${path.join('.')}=${text}` });

/** The yaml package, the same CommonJS module src/scenario/document.ts loads, so that its work can be counted. */
const YAML = createRequire(import.meta.url)('yaml') as typeof import('yaml');

/**
 * yaml's work while `run` runs, counted rather than timed (a count does not change on a busy
 * machine): documents parsed, tokens lexed (by the size check and the parser alike), and pairs
 * of keys compared by yaml's own unique-key check. Asked for (uniqueKeys not false), that check
 * is made with a comparator of the same meaning as yaml's own that counts its calls.
 */
function yamlWork<T>(run: () => T): { value: T; parsed: number; lexed: number; compared: number } {
  const work = { parsed: 0, lexed: 0, compared: 0 };
  const { lex } = YAML.Lexer.prototype;
  const { isScalar, parseDocument } = YAML;
  const lexer = vi.spyOn(YAML.Lexer.prototype, 'lex').mockImplementation(function* counted(this: InstanceType<typeof YAML.Lexer>, ...args) {
    for (const token of lex.apply(this, args)) { work.lexed++; yield token; }
  });
  const parser = vi.spyOn(YAML, 'parseDocument').mockImplementation((text, options) => {
    work.parsed++;
    const same = (a: unknown, b: unknown) => { work.compared++; return a === b || (isScalar(a) && isScalar(b) && a.value === b.value); };
    return parseDocument(text, options?.uniqueKeys === false ? options : { ...options, uniqueKeys: same });
  });
  try {
    return { value: run(), ...work };
  } finally {
    lexer.mockRestore();
    parser.mockRestore();
  }
}

/** The InputError parsing throws (fails the test when none is thrown). */
function refusal(text: string, overrides: Override[] = [], source = 's.yaml'): InputError {
  try {
    parseScenario(text, source, overrides);
  } catch (e) {
    if (e instanceof InputError) return e;
    throw e;
  }
  throw new Error('expected an InputError, but the scenario was accepted');
}

describe('prototype keys (item 5)', () => {
  it.each(['__proto__', 'constructor', 'prototype'])('refuses %s as a --set path part, and pollutes nothing', (part) => {
    for (const path of [[part, 'actions'], ['client', part, 'timeout'], ['service', 'latency', 'components', 0, part]]) {
      const e = refusal('', [set(path, '7')]);
      expect(e.message).toContain(`"${part}" cannot be used as a key`);
      expect(e.origin?.source).toMatch(/^--set /);
    }
    expect(({} as Record<string, unknown>)['actions']).toBeUndefined();
  });

  it('refuses them as keys of the file, YAML or JSON (where JSON.parse makes __proto__ an own key), with a preset too', () => {
    expect(refusal('__proto__: {actions: 7}\n').message).toMatch(/^s\.yaml:1:1, key __proto__: "__proto__" cannot be used as a key/);
    expect(refusal('preset: stripe\n__proto__: {actions: 7}\n').origin).toEqual({ source: 's.yaml', line: 2, col: 1 });
    expect(refusal('client:\n  constructor: {timeout: 5}\n').keyPath).toBe('client.constructor');
    expect(refusal('{"__proto__": {"actions": 7}}', [], 's.json').keyPath).toBe('__proto__');
    expect(refusal('', [set(['service', 'latency'], '{dist: constant, value: 5, __proto__: {x: 1}}')]).keyPath).toBe('service.latency.__proto__');
  });

  it('refuses them in sweep.vary keys, at the key\'s line', () => {
    for (const key of ['__proto__', 'client.__proto__.timeout', 'constructor', 'service.latency.components[0].prototype']) {
      const e = refusal(`actions: 10\nsweep:\n  vary:\n    ${key}: [1, 2]\n`);
      expect(e.origin).toEqual({ source: 's.yaml', line: 4, col: 5 });
      expect(e.keyPath).toBe(`sweep.vary.${key}`);
    }
  });

  it('a preset overlay keeps a __proto__ key an own key (defence in depth: the parser refuses it first)', () => {
    const out = overlay({ client: { retries: 1 } }, JSON.parse('{"__proto__": {"actions": 7}, "client": {"timeout": 5}}') as Record<string, unknown>);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(out['actions']).toBeUndefined();
    expect(Object.keys(out)).toEqual(['client', '__proto__']);
    expect(out['client']).toEqual({ retries: 1, timeout: 5 });
  });

  it.each(['__proto__', 'constructor', 'prototype'])('refuses %s as an incident or alert name (expect: paths and results use names as keys)', (name) => {
    const incident = refusal(`load: {duration: 1h}\nincidents: [{name: ${name}, from: 1m, to: 2m, service: {latency_multiplier: 2}}]\n`);
    expect(incident.message).toMatch(new RegExp(`^s\\.yaml:2:\\d+, key incidents\\[0\\]\\.name: got "${name}"`));
    const alert = refusal(`load: {duration: 1h}\nalerts: [{name: ${name}, metric: timeouts, above: 1}]\n`);
    expect(alert.message).toMatch(new RegExp(`key alerts\\[0\\]\\.name: got "${name}", expected a name .*not __proto__, constructor or prototype`));
    // A name that only begins like one is a name.
    expect(() => parseScenario(`load: {duration: 1h}\nalerts: [{name: ${name}_x, metric: timeouts, above: 1}]\n`, 's.yaml')).not.toThrow();
  });

  it('forbiddenPart reads written paths and path parts', () => {
    expect(forbiddenPart('a.__proto__[0].b')).toBe('__proto__');
    expect(forbiddenPart(['a', 0, 'constructor'])).toBe('constructor');
    expect(forbiddenPart('client.timeout')).toBeUndefined();
  });

  it('a --set path through an inherited name finds no inherited value', () => {
    // Object.prototype.toString once made this "cannot set a key inside undefined".
    expect(refusal('', [set(['toString', 'x'], '1')]).message).toContain('unknown key "toString"');
  });

  it('an override into one use of an alias leaves the other uses alone', () => {
    const { scenario } = parseScenario('workload: {twin_delay: &d {min: 1s, max: 2s}}\nagent: {replan_delay: *d}\n', 's.yaml',
      [set(['agent', 'replan_delay', 'max'], '3s')]);
    expect(scenario.workload.twin_delay).toEqual({ min: 1000, max: 2000 });
    expect(scenario.agent.replan_delay).toEqual({ min: 1000, max: 3000 });
  });
});

describe('aliases and nesting (item 8)', () => {
  it.each([
    ['description: &a [*a]\n', 'description[0]', 1],
    ['hint: &a [*a]\n', 'hint[0]', 1],
    ['sweep:\n  vary: &a {client.timeout: [*a]}\n', 'sweep.vary.client.timeout[0]', 2],
    ['expect: &a {duplicates_per_1000: *a}\n', 'expect.duplicates_per_1000', 1],
    ['client: &a {backoff: {max: *a}}\n', 'client.backoff.max', 1],
  ])('a self-referencing alias: %j at %s', (text, keyPath, line) => {
    const e = refusal(text);
    expect(e.keyPath).toBe(keyPath);
    expect(e.origin?.line).toBe(line);
    expect(e.problem).toContain('is inside the value it refers to');
  });

  it('a self-referencing alias and an alias bomb in a --set value', () => {
    expect(refusal('', [set(['description'], '&a [*a]')]).keyPath).toBe('description[0]');
    const bomb = '[&a [1,1,1,1,1,1,1,1,1], &b [*a,*a,*a,*a,*a,*a,*a,*a,*a], &c [*b,*b,*b,*b,*b,*b,*b,*b,*b], [*c,*c,*c,*c,*c,*c,*c,*c,*c]]';
    const e = refusal('', [set(['description'], bomb)]);
    expect(e.problem).toContain('expand to more than 100 copies');
    expect(e.origin?.source).toBe(`--set description=${bomb}`);
  });

  it('an alias bomb in the file is reported at its first alias', () => {
    const e = refusal('a: &a [1,1,1,1,1,1,1,1,1]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n');
    expect(e.problem).toMatch(/^cannot be read: its YAML aliases/);
    expect(e.origin).toEqual({ source: 's.yaml', line: 2, col: 8 });
  });

  it('an alias with no anchor', () => {
    expect(refusal('description: *nowhere\n').problem).toContain('has no anchor &nowhere');
  });

  it('100,000 [ in a row (flow nesting) is refused at the first level too deep, before the parser', () => {
    const { value: e, parsed, lexed } = yamlWork(() => refusal(`description: ${'['.repeat(100_000)}${']'.repeat(100_000)}`));
    expect(e.problem).toContain(`more than ${MAX_DEPTH} levels deep`);
    expect(e.origin).toEqual({ source: 's.yaml', line: 1, col: 14 + MAX_DEPTH });
    expect(parsed).toBe(0);
    // The lexer stops at level 65: its tokens, not the text's 200,003.
    expect(lexed).toBeGreaterThan(MAX_DEPTH);
    expect(lexed).toBeLessThan(2 * MAX_DEPTH);
  });

  it('block nesting: 64 levels are read, 65 refused; 3000 (where the parser runs out of stack) refused too', () => {
    const nested = (levels: number) => `description:\n${Array.from({ length: levels }, (_, i) => `${' '.repeat(i + 1)}a:`).join('\n')} 1\n`;
    // description's value is level 1, so levels - 1 mappings of `a` nest inside it.
    expect(refusal(nested(MAX_DEPTH - 1)).problem).toContain('got {"a"'); // read in full, then refused as not a string
    expect(refusal(nested(MAX_DEPTH)).problem).toContain('levels deep');
    expect(refusal(nested(3000)).problem).toContain('levels deep');
    expect(refusal(`${'- '.repeat(50_000)}1`).problem).toContain('levels deep');
  });

  it('an alias that nests a value deeper than the text does is refused', () => {
    const deep = (n: number, inner: string) => `${'['.repeat(n)}${inner}${']'.repeat(n)}`;
    expect(refusal(`a: &a ${deep(40, '1')}\ndescription: ${deep(40, '*a')}\n`).problem).toContain('levels deep');
  });

  it(`more than ${MAX_TOKENS.toLocaleString('en-US')} tokens is refused before parsing (a 4 MiB file of keys ran a 512 MB heap out)`, () => {
    const { value: e, parsed, lexed } = yamlWork(() => refusal(`sweep:\n  vary:\n${Array.from({ length: 60_000 }, (_, i) => `    k${i}: [1]`).join('\n')}\n`));
    expect(e.problem).toContain('is too large for a scenario');
    expect(e.origin?.line).toBe(25_002); // 4 tokens a line: `k`, `:`, `[`, `1`
    expect(parsed).toBe(0);
    // Lexing stops at the limit: the first 25,002 lines' tokens (spaces, newlines and `]` too), not all 60,002 lines'.
    expect(lexed).toBeGreaterThan(MAX_TOKENS);
    expect(lexed).toBeLessThan(3 * MAX_TOKENS);
    expect(refusal('', [set(['description'], `[${'1,'.repeat(60_000)}]`)]).problem).toContain('is too large');
  });

  it('a key given twice names the key and both lines (found without comparing every pair of keys)', () => {
    const e = refusal('client: {timeout: 1s}\nactions: 5\nclient: {timeout: 2s}\n');
    expect(e.message).toBe('s.yaml:3:1, key client: the key "client" is given twice (first at line 1). Keep one of them.');
    const many = `sweep:\n  vary:\n${Array.from({ length: 20_000 }, (_, i) => `    k${i}: x`).join('\n')}\n    k0: y\n`;
    const { value, parsed, compared } = yamlWork(() => refusal(many));
        expect(value.keyPath).toBe('sweep.vary.k0');
    expect(parsed).toBe(1);
    // yaml's own check compares each key with every one before it: 2 × 10^8 pairs here, 5.8 s.
    expect(compared).toBe(0);
  });
});

describe('numbers the model cannot represent (item 9)', () => {
  it('.nan and .inf are named as what they are, on a duration too (not "has no unit, write NaNs")', () => {
    expect(refusal('', [set(['client', 'timeout'], '.nan')]).message).toMatch(/key client\.timeout: got NaN \(not a number\), expected a duration above 0 with its unit/);
    expect(refusal('', [set(['client', 'timeout'], '-.inf')]).message).toMatch(/got -Infinity \(a number too large to use\), expected a duration/);
    expect(refusal('', [set(['service', 'error_rate'], '.nan')]).message).toMatch(/key service\.error_rate: got NaN \(not a number\), expected a probability/);
  });

  it('mixture weights: 1e308 each summed to Infinity; each weight is at most 10^9', () => {
    const mix = (w: string) => `service: {latency: {dist: mixture, components: [{weight: ${w}, median: 1ms}, {weight: ${w}, median: 1s}]}}`;
    expect(refusal(mix('1e308')).message).toContain('key service.latency.components[0].weight: got 1e+308, expected a relative weight from 0 to 10^9');
    const { scenario } = parseScenario(mix('1e9'), 's.yaml');
    expect(scenario.service.latency).toMatchObject({ components: [{ weight: 1e9 }, { weight: 1e9 }] });
  });

  it('the slowest rate keeps a chunk\'s arrivals inside the time budget of 2^42 ms (about 1 us precision)', () => {
    const span = (CHUNK_ACTIONS * 1000) / MIN_RATE_PER_S;
    // 20 % more than the mean span is 25 standard deviations of a Gamma(16384) (1/128 of the mean each).
    expect(1.2 * span + MAX_DURATION_MS).toBeLessThan(2 ** 42);
    for (const r of ['5e-324', '1e-15', '9.9e-6', '2e9']) {
      expect(refusal(`load: {rate_per_s: ${r}}`).message).toContain('expected a number from 0.00001 (one action per 27.8 hours) to 10^9');
    }
    expect(parseScenario('load: {rate_per_s: 1e-5}', 's.yaml').scenario.load.rate_per_s).toBe(1e-5);
  });

  it('durations: finite and at most 3650d, whether a number or a string, wherever they are', () => {
    const zeros = `1${'0'.repeat(400)}ms`;
    const e = refusal(`client: {timeout: "${zeros}"}`);
    expect(e.message).toContain('key client.timeout: "10000000000000000000...00000000ms" (403 characters) is longer than the longest duration the model takes, 3650d (10 years)');
    expect(e.origin).toEqual({ source: 's.yaml', line: 1, col: 19 });
    expect(parseScenario('idempotency: {retention: 3650d}', 's.yaml').scenario.idempotency.retention).toBe(MAX_DURATION_MS);
    for (const text of [
      'idempotency: {retention: 3651d}', 'idempotency: {lease: 87601h}', 'client: {deadline: 3652d}',
      'service: {latency: {dist: mixture, components: [{weight: 1, dist: constant, value: 9999999d}]}}',
      'runtime: {resume_delay: {max: 400000000000ms}}',
    ]) {
      expect(refusal(text).message).toMatch(/at most 3650d/);
    }
    expect(refusal('', [set(['client', 'timeout'], zeros)]).origin?.source).toBe(`--set client.timeout=${zeros}`);
  });

  it('record_bytes at most 16 MiB; sigma at most 10; multiplier at most 100', () => {
    expect(refusal('idempotency: {record_bytes: 1e300}').message).toContain('got 1e+300, expected a whole number >= 1 (bytes one key record takes, at most 16 MiB = 16777216)');
    expect(refusal(`idempotency: {record_bytes: ${MAX_RECORD_BYTES + 1}}`).keyPath).toBe('idempotency.record_bytes');
    expect(parseScenario(`idempotency: {record_bytes: ${MAX_RECORD_BYTES}}`, 's.yaml').scenario.idempotency.record_bytes).toBe(16_777_216);
    expect(refusal('service: {latency: {sigma: 10.5}}').message).toContain('expected a number from 0 to 10');
    expect(refusal('client: {backoff: {multiplier: 101}}').message).toContain('expected a number from 1 to 100');
  });

  it('an expect threshold that reads as infinite', () => {
    expect(refusal('expect: {duplicates_per_1000: "< 1e400"}').keyPath).toBe('expect.duplicates_per_1000');
    expect(refusal(`expect: {action_latency_ms.p50: "< ${'9'.repeat(400)}s"}`).problem).toContain('reads as infinite');
  });

  it.each([
    ['description: !!omap\n  - a: 1\n', '!!omap', 'description'],
    ['client: !!set\n  ? timeout\n', '!!set', 'client'],
    ['description: !!binary aGVsbG8=\n', '!!binary', 'description'],
    ['description: !!timestamp 2001-12-14\n', '!!timestamp', 'description'],
    ['client: {timeout: !foo 2s}\n', '!foo', 'client.timeout'],
    ['client: {!foo timeout: 2s}\n', '!foo', 'client'],
    ['description: ! x\n', '!', 'description'],
  ])('refuses a YAML tag: %j', (text, tag, keyPath) => {
    const e = refusal(text);
    expect(e.problem).toBe(`the YAML tag ${tag} is not supported in a scenario (it would be read as something else)`);
    expect(e.keyPath).toBe(keyPath);
  });

  it('the core tags read as without them', () => {
    expect(parseScenario('client: {timeout: !!str 2s, retries: !!int 4}\n', 's.yaml').scenario.client).toMatchObject({ timeout: 2000, retries: 4 });
    expect(refusal('', [set(['client', 'timeout'], '!!binary aGVsbG8=')]).keyPath).toBe('client.timeout');
  });
});
