/**
 * The rule file a promtool test reads, read and checked where it lies (report/promtool-rules.ts
 * says where it goes and how a pair is refused): one idem-sim wrote before, which writing again
 * replaces, or the file --rules names, which must hold the rules the command makes.
 */
import { existsSync, lstatSync } from 'node:fs';
import { basename } from 'node:path';
import { InputError } from '../scenario/errors.js';
import { shellQuote } from '../scenario/shell-quote.js';
import { besideTest, refuseGlobDirectory, refuseUnpaired, rulesBeside, rulesDiffer, RULES_HEAD, type RulesBeside } from '../report/promtool-rules.js';
import { MAX_SCENARIO_BYTES, readUserFile } from '../io/files.js';
import { refuseOutputsAt } from '../io/outputs.js';
import { head } from '../io/output.js';

/** Where the rules of the test `test` (--out as given, when a regular file) are written; refused on standard output, a device or a pipe, in a directory promtool would read as a pattern, and over a file idem-sim did not write. */
export function rulesBesideTest(test: string | undefined, out: string | undefined): RulesBeside {
  if (test === undefined) return refuseUnpaired(out);
  const name = rulesBeside(test);
  refuseGlobDirectory(test, name);
  const path = besideTest(test, name);
  return { test, name, path, previous: previousRules(path, test) };
}

/**
 * The rule file already at `path`, where the test's rules are to be written: undefined for
 * none; its text when idem-sim wrote it (writing again replaces it); any other file is refused,
 * as it may be rules someone keeps.
 */
function previousRules(path: string, out: string): string | undefined {
  let regular: boolean;
  try {
    regular = lstatSync(path).isFile();
  } catch {
    return undefined; // nothing there
  }
  if (regular && head(path).startsWith(RULES_HEAD)) return readUserFile(path, 'the rule file', '', { source: `--out ${out}` }, 'the current directory', MAX_SCENARIO_BYTES);
  throw new InputError({ source: `--out ${out}` }, '',
    `the rules the test reads are written beside it, to ${path}, but that ${regular ? 'file was not written by idem-sim' : 'is not a regular file'} and is not replaced`,
    `Give --rules ${shellQuote(basename(path))} to test that file as it is (it must hold the rules this command makes), or give --out another name.`);
}

/**
 * The rule file --rules names (`given`), read where promtool will read it, relative to the test
 * file `test`: refused when it is not there or does not hold `ours`, the rules this command
 * makes. `write`: the command line that writes them there.
 */
export function keptRules(given: string, test: string | undefined, ours: string, write: string): string {
  refuseGlobDirectory(test, given);
  const path = besideTest(test, given);
  const from = test === undefined ? 'the current directory (where a test on standard output is taken to be saved)' : "the test file's directory";
  const source = { source: `--rules ${given}` };
  const fix = `Write them there with this test's options: ${write}; or leave --rules out, and the command writes the rules beside the test.`;
  if (!existsSync(path)) {
    throw new InputError(source, '', `promtool reads a test's rule file relative to the test file, so the test would read ${path}, relative to ${from}, and there is no file there`, fix);
  }
  refuseOutputsAt(path, 'the rule file --rules names');
  const text = readUserFile(path, 'the rule file', '', source, from, MAX_SCENARIO_BYTES);
  const differs = rulesDiffer(text, ours);
  if (differs !== undefined) throw new InputError(source, '', `${path} does not hold the rules this command makes for the scenario: ${differs}`, fix);
  return text;
}

