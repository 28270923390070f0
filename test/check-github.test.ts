/**
 * `check --format github` (issue 25, item 5; docs/ci-gate.md): the workflow commands and the
 * Markdown step summary byte for byte, the commands' escaping (actions/toolkit's command.ts:
 * `%`, CR and LF in a message; also `:` and `,` in a property), and hostile names that must
 * neither end a command's line nor become Markdown.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Io } from '../src/io/streams.js';
import { main } from '../src/cli/main.js';
import { renderCheckSummary } from '../src/report/check-summary.js';
import { escapeData, escapeProperty, renderWorkflowCommands, workflowCommand } from '../src/report/github.js';
import type { CheckedScenario, CheckReport } from '../src/report/types.js';
import { withoutNotes } from './helpers.js';

const origin = { source: 'scenarios/alpha.yaml', line: 12 };
const CHECKED: CheckedScenario = {
  name: 'alpha', file: 'scenarios/alpha.yaml', seed: '1', actions: 4000, coupled: false,
  warnings: [
    { text: 'scenarios/alpha.yaml:7:3, key idempotency.lease: has no effect without a claim. Drop it.', source: 'scenarios/alpha.yaml', line: 7 },
    { text: '--set client.jitter=none, key client.jitter: has no effect. Drop it.', source: '--set client.jitter=none' },
  ],
  verdicts: [
    { expectation: { metric: 'duplicates_per_1000', op: '<=', threshold: 20, text: '<= 20', confidence: 'none', origin }, measured: { value: 12.5, ci95: [11.25, 13.75] }, pass: true },
    { expectation: { metric: 'lost_per_1000', op: '==', threshold: 0, text: '== 0', confidence: 'ci95', origin: { source: 'scenarios/alpha.yaml', line: 14 } }, measured: { value: 0, ci95: [0, 0] }, interval: [0, 0.75], pass: false },
    { expectation: { metric: 'call_latency_ms.p95', op: '<', threshold: 1000, text: '< 1s', confidence: 'none', origin: { source: 'scenarios/alpha.yaml' } }, measured: { value: 1800 }, pass: false },
  ],
};
const ERROR = { name: 'beta', file: 'scenarios/beta.yaml', message: 'scenarios/beta.yaml:3:9, key client.retries: expected a whole number, got "many". Write a count such as 3.', source: 'scenarios/beta.yaml', line: 3 };
const REPORT: CheckReport = { checked: [CHECKED], errors: [ERROR], skipped: [] };
const REPLAY = 'idem-sim check scenarios/alpha.yaml scenarios/beta.yaml --seed 1';

describe('workflow commands', () => {
  it('escape a message: % first, then CR and LF; a property: also : and ,', () => {
    expect(escapeData('100% done\r\nnext: a, b')).toBe('100%25 done%0D%0Anext: a, b');
    expect(escapeProperty('100% done\r\nnext: a, b')).toBe('100%25 done%0D%0Anext%3A a%2C b');
    expect(escapeData('%0A')).toBe('%250A'); // a literal %0A stays literal
  });

  it('an error at each failing expect: line (a line break of its own as %0A), the invalid files, a warning at its line', () => {
    expect(renderWorkflowCommands(REPORT, REPLAY)).toBe([
      '::error file=scenarios/beta.yaml,line=3,title=idem-sim check%3A invalid scenario file::scenarios/beta.yaml:3:9, key client.retries: expected a whole number, got "many". Write a count such as 3.',
      '::error file=scenarios/alpha.yaml,line=14,title=idem-sim check%3A lost_per_1000 == 0::alpha: lost_per_1000 measured 0, 95%25 interval 0 to 0.75, expected == 0 (seed 1, 4000 actions)%0Areplay: idem-sim check scenarios/alpha.yaml scenarios/beta.yaml --seed 1',
      '::error file=scenarios/alpha.yaml,title=idem-sim check%3A call_latency_ms.p95 < 1s::alpha: call_latency_ms.p95 measured 1.8 s, expected < 1s (seed 1, 4000 actions)%0Areplay: idem-sim check scenarios/alpha.yaml scenarios/beta.yaml --seed 1',
      '::warning file=scenarios/alpha.yaml,line=7,title=idem-sim check%3A a setting with no effect::scenarios/alpha.yaml:7:3, key idempotency.lease: has no effect without a claim. Drop it.',
      '::warning title=idem-sim check%3A a setting with no effect::--set client.jitter=none, key client.jitter: has no effect. Drop it.',
      '',
    ].join('\n'));
  });

  it('a warning of another kind than a setting with no effect has its own title: an agent\'s name rewritten from its file\'s', () => {
    const renamed = { text: 'é.yaml:1:1, key agent.name: is left out, so the agent is named after its file. Give it a name.', source: 'é.yaml', line: 1, kind: 'name' as const };
    expect(renderWorkflowCommands({ checked: [{ ...CHECKED, warnings: [renamed], verdicts: CHECKED.verdicts.slice(0, 1) }], errors: [], skipped: [] }, REPLAY))
      .toBe('::warning file=é.yaml,line=1,title=idem-sim check%3A a name rewritten::é.yaml:1:1, key agent.name: is left out, so the agent is named after its file. Give it a name.\n');
  });

  it('nothing to say: no output', () => {
    expect(renderWorkflowCommands({ checked: [{ ...CHECKED, warnings: [], verdicts: CHECKED.verdicts.slice(0, 1) }], errors: [], skipped: [] }, REPLAY)).toBe('');
  });

  it('a hostile file name cannot end the line or start a command: printable, then escaped', () => {
    const file = 'a%b,c:d\n::error::owned\r\u001b[2J.yaml';
    expect(workflowCommand('error', { file, line: 2 }, `t ${file}`, [`m ${file}`, 'next'])).toBe(
      '::error file=a%25b%2Cc%3Ad\\u000a%3A%3Aerror%3A%3Aowned\\u000d\\u001b[2J.yaml,line=2,title=t a%25b%2Cc%3Ad\\u000a%3A%3Aerror%3A%3Aowned\\u000d\\u001b[2J.yaml'
      + '::m a%25b,c:d\\u000a::error::owned\\u000d\\u001b[2J.yaml%0Anext');
  });
});

describe('the step summary', () => {
  it('the table in Markdown, the tally, the invalid files, the warnings and the footer', () => {
    expect(renderCheckSummary(REPORT, `seed 1; idem-sim 9.9.9; replay: ${REPLAY}`)).toBe(`### idem-sim check: 2 of 3 expectations fail

| scenario | metric | expected | measured | result |
| --- | --- | --- | ---: | --- |
| alpha | duplicates\\_per\\_1000 | \\<= 20 | 12.5 ± 1.3 | pass |
| alpha | lost\\_per\\_1000 | == 0 (whole CI) | 0 (95% ≤ 0.75) | **FAIL** |
| alpha | call\\_latency\\_ms.p95 | \\< 1s | 1.8 s | **FAIL** |

**1 scenario file is invalid, not checked (its error is on standard error): scenarios/beta.yaml**

- scenarios/beta.yaml:3:9, key client.retries: expected a whole number, got "many". Write a count such as 3.

Settings with no effect (2):

- scenarios/alpha.yaml:7:3, key idempotency.lease: has no effect without a claim. Drop it.
- --set client.jitter=none, key client.jitter: has no effect. Drop it.

seed 1; idem-sim 9.9.9; replay: idem-sim check scenarios/alpha.yaml scenarios/beta.yaml --seed 1
`);
  });

  it('a hostile name is text: no HTML, link, emphasis, mention, math or table cell of its own', () => {
    const name = '<img src=x onerror=alert(1)> [x](javascript:1) *b* @team $x$ a|b `c`\n# h';
    const text = renderCheckSummary({ checked: [{ ...CHECKED, name, warnings: [] }], errors: [], skipped: [] }, 'f');
    expect(text).toContain('| \\<img src=x onerror=alert(1)\\> \\[x\\](javascript:1) \\*b\\* \\@team \\$x\\$ a\\|b \\`c\\`\\\\u000a\\# h | duplicates');
  });
});

describe('the step summary fits GitHub\'s 1 MiB', () => {
  it('whatever the report: rows, invalid files, warnings and footer are bounded', () => {
    const long = 'x'.repeat(5000);
    const many = Array.from({ length: 3000 }, (_, k) => ({ ...CHECKED, name: `${long}${k}`, warnings: Array.from({ length: 5 }, () => ({ text: long })) }));
    const errors = Array.from({ length: 3000 }, () => ({ ...ERROR, file: long, message: long }));
    const text = renderCheckSummary({ checked: many, errors, skipped: [] }, `replay: ${long.repeat(100)}`);
    expect(Buffer.byteLength(text)).toBeLessThan(800_000);
    expect(text).toContain('and 8000 more rows: the step\'s log has the whole table.');
  });
});

describe('check --format github, through the command line', () => {
  /** Streams that keep what is written, with `env` for $GITHUB_STEP_SUMMARY. */
  function capture(env: Record<string, string> = {}): Io & { out: () => string; err: () => string } {
    let out = '';
    let err = '';
    const stream = (add: (s: string) => void) => ({ write: (s: string | Uint8Array) => { add(String(s)); return true; } }) as unknown as NodeJS.WritableStream;
    return { stdout: stream((s) => { out += s; }), stderr: stream((s) => { err += s; }), env: { NO_COLOR: '1', ...env }, out: () => out, err: () => err };
  }
  const run = async (args: string[], io = capture()) => ({ status: await main(['node', 'idem-sim', 'check', ...args], io), stdout: io.out(), stderr: io.err() });
  const dir = mkdtempSync(join(tmpdir(), 'idem-sim-github-'));
  const file = join(dir, 'gate.yaml');
  // Line 4 fails (intent keys, but no retries are none: duplicates stay 0, attempts per action are above 1).
  writeFileSync(file, 'actions: 2000\nidempotency: {scope: intent}\nexpect:\n  attempts_per_action: "< 1"\n  duplicates_per_1000: "== 0"\n');

  it('the table for the log, an error at the failing line, and the summary appended to $GITHUB_STEP_SUMMARY', async () => {
    const summary = join(dir, 'step-summary.md');
    writeFileSync(summary, '# an earlier step\n');
    const r = await run([file, '--format', 'github'], capture({ GITHUB_STEP_SUMMARY: summary }));
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('1 of 2 expectations fail');
    expect(r.stdout).toMatch(new RegExp(`^::error file=${escapeProperty(file)},line=4,title=idem-sim check%3A attempts_per_action < 1::gate: attempts_per_action measured .+, expected < 1 \\(seed 1, 2000 actions\\)%0Areplay: idem-sim check ${file} --seed 1$`, 'm'));
    const written = readFileSync(summary, 'utf8');
    expect(written.startsWith('# an earlier step\n### idem-sim check: 1 of 2 expectations fail\n')).toBe(true);
    expect(written).toContain('| gate | attempts\\_per\\_action | \\< 1 |');
  });

  it('--summary FILE takes the summary instead (whole, with any format); nothing without either', async () => {
    const summary = join(dir, 'summary.md');
    const r = await run([file, '--summary', summary]);
    expect(r.status).toBe(1);
    expect(r.stdout).not.toContain('::error');
    expect(readFileSync(summary, 'utf8')).toMatch(/^### idem-sim check: 1 of 2 expectations fail\n/);
    expect(withoutNotes((await run([file, '--format', 'github'])).stderr)).toBe('');
  });

  it('refuses --json beside another format, and two reports on standard output', async () => {
    expect(await run([file, '--json', '--format', 'github'])).toEqual({ status: 2, stdout: '', stderr: 'idem-sim: error: --json: cannot be combined with --format github. Give --json alone for the JSON report, or --format github alone.\n' });
    expect(await run([file, '--format', 'github', '--summary', '-'])).toEqual({ status: 2, stdout: '', stderr: 'idem-sim: error: --summary -: the Markdown summary and the workflow commands would both go to standard output. Write the workflow commands elsewhere with --out FILE, or the Markdown summary with --summary FILE.\n' });
  });

  it('a summary that cannot be written is warned of; the verdict stands', async () => {
    const r = await run([file, '--format', 'github'], capture({ GITHUB_STEP_SUMMARY: dir }));
    expect(r.status).toBe(1);
    expect(withoutNotes(r.stderr)).toBe(`idem-sim: warning: the step summary could not be appended to $GITHUB_STEP_SUMMARY (${dir}): EISDIR. The check's verdict and annotations stand; give --summary FILE to write it elsewhere.\n`);
  });
});
