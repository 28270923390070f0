/**
 * `fit --into`: the comments on the latency it replaces stay, each on its line, in each of the
 * forms it writes (a histogram's block, a lognormal's one line); those on the old value's own keys
 * go. Every other byte of the file stays as written: the comments of other keys (on a `key:` line
 * of a block too, where the yaml library would move them), `service:`'s own, and CRLF line endings.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeInto } from '../src/cli/fit.js';

const HISTOGRAM = { dist: 'histogram', buckets: [{ le: 0, count: 6 }, { le: 0.5, count: 11 }], total: 14 };
const HISTOGRAM_LINES = '    dist: histogram\n    buckets:\n      - {le: 0, count: 6}\n      - {le: 0.5, count: 11}\n    total: 14\n';
const LOGNORMAL = { median: '228ms', sigma: 0.825 };
const FLOW = '{median: 228ms, sigma: 0.825}';

describe('--into keeps the comments on the latency it replaces', () => {
  const dir = mkdtempSync(join(tmpdir(), 'idem-sim-fit-into-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const into = (text: string, value: Record<string, unknown>): string => {
    const file = join(dir, 's.yaml');
    writeFileSync(file, text);
    return writeInto(file, value);
  };

  it('an inline comment on the line it replaces, as spaced', () => {
    const text = "service:\n  latency: {dist: lognormal, median: 100ms, sigma: 0.5}  # from last quarter's dashboards\n  error_rate: 0.01\n";
    expect(into(text, HISTOGRAM)).toBe(`service:\n  latency:  # from last quarter's dashboards\n${HISTOGRAM_LINES}  error_rate: 0.01\n`);
    expect(into(text, LOGNORMAL)).toBe(`service:\n  latency: ${FLOW}  # from last quarter's dashboards\n  error_rate: 0.01\n`);
  });

  it('a comment after the opening brace of a flow mapping written over several lines', () => {
    const text = 'service:\n  latency: {  # open\n    median: 100ms,  # the old median\n    sigma: 0.5 }\n  error_rate: 0.01\n';
    expect(into(text, LOGNORMAL)).toBe(`service:\n  latency: ${FLOW}  # open\n  error_rate: 0.01\n`);
    expect(into(text, HISTOGRAM)).toBe(`service:\n  latency:  # open\n${HISTOGRAM_LINES}  error_rate: 0.01\n`);
  });

  it("a block's comment on its key's line, above its first key and after it; those on its keys go with them", () => {
    const text = 'service:\n  latency:  # measured on Monday\n    # in the Paris region\n    dist: lognormal # the old form\n    median: 100ms\n    sigma: 0.5\n    # until the next deploy\n  error_rate: 0.01\n';
    expect(into(text, HISTOGRAM)).toBe(`service:\n  latency:  # measured on Monday\n    # in the Paris region\n${HISTOGRAM_LINES}    # until the next deploy\n  error_rate: 0.01\n`);
    expect(into(text, LOGNORMAL)).toBe(`service:\n  latency: ${FLOW}  # measured on Monday\n    # in the Paris region\n    # until the next deploy\n  error_rate: 0.01\n`);
    const one = 'service:\n  latency: # on its line\n    median: 100ms\n    sigma: 0.5\n';
    expect(into(one, HISTOGRAM)).toBe(`service:\n  latency: # on its line\n${HISTOGRAM_LINES}`);
  });

  it("service:'s own comment, and the other keys' comments, on their lines, where service: has no latency", () => {
    const text = 'actions: 10  # enough\nservice:  # the refunds API\n  error_rate: 0.01  # measured\n  # about its retries\nclient:  # the app\n  timeout: 1s\n';
    expect(into(text, LOGNORMAL)).toBe(`actions: 10  # enough\nservice:  # the refunds API\n  error_rate: 0.01  # measured\n  latency: ${FLOW}\n  # about its retries\nclient:  # the app\n  timeout: 1s\n`);
    expect(into('service:  # the refunds API\n  error_rate: 0.01\nclient:  # the app\n  timeout: 1s\n', HISTOGRAM))
      .toBe(`service:  # the refunds API\n  error_rate: 0.01\n  latency:\n${HISTOGRAM_LINES}client:  # the app\n  timeout: 1s\n`);
    expect(into('actions: 10  # enough\nclient:  # the app\n  timeout: 1s\n# the end\n', LOGNORMAL))
      .toBe(`actions: 10  # enough\nclient:  # the app\n  timeout: 1s\nservice:\n  latency: ${FLOW}\n# the end\n`);
  });

  it('CRLF line endings, and a document between --- and ...', () => {
    const crlf = 'service:\r\n  latency: {median: 100ms, sigma: 0.5}  # c\r\n  error_rate: 0.01\r\n';
    expect(into(crlf, LOGNORMAL)).toBe(`service:\r\n  latency: ${FLOW}  # c\r\n  error_rate: 0.01\r\n`);
    expect(into(crlf, HISTOGRAM)).toBe(`service:\r\n  latency:  # c\r\n${HISTOGRAM_LINES.replaceAll('\n', '\r\n')}  error_rate: 0.01\r\n`);
    expect(into('actions: 10\r\nclient:\r\n  timeout: 1s\r\n', LOGNORMAL)).toBe(`actions: 10\r\nclient:\r\n  timeout: 1s\r\nservice:\r\n  latency: ${FLOW}\r\n`);
    expect(into('---\n# c\nservice:\n  latency: {median: 180ms, sigma: 0.498} # x\n...\n', LOGNORMAL)).toBe(`---\n# c\nservice:\n  latency: ${FLOW} # x\n...\n`);
  });

  it('a mixture on one line, however long', () => {
    const mixture = { dist: 'mixture', components: [{ weight: 0.8, median: '100ms', sigma: 0.3 }, { weight: 0.2, median: '800ms', sigma: 0.4 }] };
    expect(into('service:\n  latency: {median: 1ms, sigma: 1}\n', mixture))
      .toBe('service:\n  latency: {dist: mixture, components: [{weight: 0.8, median: 100ms, sigma: 0.3}, {weight: 0.2, median: 800ms, sigma: 0.4}]}\n');
  });
});

describe('--into a scenario that does not exist', () => {
  it('is refused with how to make one, not only that it is missing', () => {
    const missing = join(tmpdir(), 'idem-sim-fit-into-none', 'scenario.yaml');
    expect(() => writeInto(missing, LOGNORMAL)).toThrow(`--into ${missing}: the scenario file ${missing} does not exist. --into writes the latency into a scenario that exists: make it first (a copy of one of yours, or a file of one line such as actions: 10000), or leave --into out to print the latency to paste.`);
  });
});
