/**
 * The rule file a promtool test reads (docs/prometheus-rules.md), as a pair with the test.
 * promtool reads a test's `rule_files` relative to the test file and only warns when none is
 * there, and then every expected alert is missing (`got:[]`). So without --rules the command
 * writes the rules beside the test, both files or neither; --rules FILE names a rule file kept
 * elsewhere, which must be where promtool will look and hold the rules the command makes. Where
 * the rule file goes, the refusals of a pair promtool cannot read, and how a kept file differs
 * from the rules made; the shell reads and writes the files (cli/alerts-rules.ts). Pure.
 */
import { createHash } from 'node:crypto';
import { basename, dirname, isAbsolute, join } from 'node:path';
import type { SeriesCounts } from '../model/series.js';
import { InputError } from '../scenario/errors.js';
import { printable } from '../scenario/printable.js';
import { asInput } from '../scenario/names.js';
import { shellQuote } from '../scenario/shell-quote.js';
import { promtoolTestEntries } from './promtool-test.js';

/** The start of every rule file idem-sim writes (report/prometheus-rules.ts, renderRuleGroup). */
export const RULES_HEAD = '# Prometheus alerting rules written by idem-sim ';

/** The name of the rule file written beside the test file `test`: x.test.yaml's is x.rules.yaml, x.yml's x.rules.yml, x's x.rules.yaml. */
export function rulesBeside(test: string): string {
  const name = basename(test);
  const parts = /^(.*?)(?:\.test)?(\.ya?ml)$/i.exec(name);
  return parts ? `${parts[1]}.rules${parts[2]}` : `${name}.rules.yaml`;
}

/** Where promtool finds the rule file `rules` a test names: relative to the test file's directory (`test` undefined: standard output, saved in the current directory). */
export const besideTest = (test: string | undefined, rules: string): string =>
  isAbsolute(rules) ? rules : join(test === undefined ? '.' : dirname(test), rules);

/** A text's SHA-256 in hex, as `sha256sum` prints a file's (the test records its rule file's). */
export const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** The rule file written beside a test: the test's path as given, the rule file's name and path, and the text of one idem-sim wrote there before. */
export interface RulesBeside {
  test: string;
  name: string;
  path: string;
  previous: string | undefined;
}

/** The characters Go's filepath.Match reads as a pattern's on Unix (`*`, `?`, `[`, `\`): promtool globs each entry of `rule_files`. */
const GLOB_CHARS = /[*?[\\]/;

/**
 * A test (`test`, --out as given) that names its rule file relative to itself (`rules`), in a
 * directory whose path holds a pattern's character: refused. promtool joins the entry to the
 * test file's directory as given and globs the whole, so such a directory matches itself no
 * more (the entry is escaped, but promtool adds the directory unescaped), the test finds no
 * rules, and promtool only warns. An absolute entry is not joined, and a test on standard
 * output is read from the current directory.
 */
export function refuseGlobDirectory(test: string | undefined, rules: string): void {
  if (test === undefined || isAbsolute(rules)) return;
  const dir = dirname(test);
  if (!GLOB_CHARS.test(dir)) return;
  throw new InputError({ source: `--out ${test}` }, '',
    `promtool finds the rule file a test names by joining the name to the test file's directory, ${dir}, and reading the whole as a pattern, and that directory holds *, ?, [ or \\, which the pattern reads as its own, not as the directory's: the test would find no rule file (promtool only warns, no file match pattern) and every alert it expects would be missing`,
    `Write the test into a directory whose path holds none of them (the file's own name may: the rule file's name is escaped), or run idem-sim and promtool from inside that directory, with --out ${shellQuote(asInput(basename(test)))}; or name a rule file you keep by its absolute path (--rules /PATH/TO/RULES.yaml), which promtool reads as it is.`);
}

/** A test on standard output (or a device or pipe) without --rules: there is no directory to write its rules beside it. */
export function refuseUnpaired(out: string | undefined): never {
  throw new InputError({ source: out === undefined ? '--format promtool-test' : `--out ${out}` }, '',
    'a promtool test reads its rule file from beside it, so the command writes the two together, and a test written to standard output, a device or a pipe has no directory to write the rules to',
    'Give --out FILE (--out SCENARIO.test.yaml writes the rules beside it, as SCENARIO.rules.yaml), or --rules FILE to name a rule file you keep (read from the current directory, where a test on standard output is taken to be saved).');
}

/** What the command says once it has written the test and, beside it, its rules (`ours`). */
export function besideNote({ test, path, previous }: RulesBeside, ours: string): string {
  const replaced = previous !== undefined && rulesDiffer(previous, ours) !== undefined ? ', replacing one idem-sim wrote with other rules' : '';
  return `idem-sim: wrote the rules the test reads beside it, to ${printable(path)}${replaced}; promtool test rules ${shellQuote(test)} runs them (--rules FILE tests a rule file you keep instead)\n`;
}

/** A rule file's lines that carry rules, numbered: comments, blank lines and trailing spaces (a CR too) aside. */
function ruleLines(text: string): { line: number; text: string }[] {
  return text.split('\n').map((t, i) => ({ line: i + 1, text: t.trimEnd() })).filter((l) => l.text !== '' && !/^\s*#/.test(l.text));
}

/**
 * Where the rule file `theirs` first differs from `ours`, comments, blank lines and trailing
 * spaces aside, in words that quote neither file (only a key and an alert's name of `ours`,
 * which the scenario's names are); undefined when they hold the same rules.
 */
export function rulesDiffer(theirs: string, ours: string): string | undefined {
  const a = ruleLines(theirs);
  const b = ruleLines(ours);
  let i = 0;
  while (i < Math.max(a.length, b.length) && a[i]?.text === b[i]?.text) i++;
  const mine = a[i];
  if (i === Math.max(a.length, b.length)) return undefined;
  if (i >= b.length) return `its line ${mine?.line ?? 0} goes on past the end of those rules`;
  const what = lineOf(b, i);
  if (mine === undefined) return a.length === 0 ? `it holds no rules (${what} first)` : `it ends at its line ${a[a.length - 1]?.line ?? 0}, before ${what}`;
  return `its line ${mine.line} is not ${what}`;
}

/** The line `i` of our rules in words: its key, and the alert it belongs to. */
function lineOf(lines: readonly { text: string }[], i: number): string {
  const key = /^\s*(?:- )?(\w+):/.exec(lines[i]?.text ?? '')?.[1] ?? '';
  for (let k = i; k >= 0; k--) {
    const alert = /^\s*- alert: ("(?:[^"\\]|\\.)*")$/.exec(lines[k]?.text ?? '')?.[1];
    if (alert !== undefined) return `the ${key}: line of alert ${alert}`;
  }
  return `the group's ${key}: line`;
}

/**
 * Entries of a promtool test file at most (one per alert and bucket; about 70 bytes each, 250
 * when the alert fires): 100,000 is a day of 1-minute buckets for 69 alerts, a file of 7 to 25 MB.
 */
export const MAX_PROMTOOL_TEST_ENTRIES = 100_000;

/** A test of `alerts` rules on `series` (the scenario `file`'s) refused when it would hold more than MAX_PROMTOOL_TEST_ENTRIES entries. */
export function refuseLargeTest(file: string, alerts: number, series: SeriesCounts): void {
  const entries = promtoolTestEntries(alerts, series);
  if (entries > MAX_PROMTOOL_TEST_ENTRIES) {
    throw new InputError({ source: file }, 'alerts', `would need ${entries.toLocaleString('en-US')} test entries (${alerts} alerts × ${series.buckets.toLocaleString('en-US')} buckets), more than the ${MAX_PROMTOOL_TEST_ENTRIES.toLocaleString('en-US')} a test file may hold`,
      'Test fewer alerts at once (--set to drop some), a shorter load.duration, or a longer --series step.');
  }
}
