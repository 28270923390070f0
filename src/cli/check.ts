/** `idem-sim check SCENARIO ...`: run each scenario and test its `expect:` block. Exit 1 if any fails. */
import { runScenario } from '../exec/runner.js';
import { check } from '../scenario/expect.js';
import { InputError } from '../scenario/errors.js';
import { PendingOutput } from './outputs.js';
import { chalkFor, shellQuote, toolVersion, type Io } from './io.js';
import { threadCount, positiveInteger, seedOption } from './options.js';
import { progressBar } from './progress.js';
import { renderJunit } from './report/junit.js';
import type { CheckedScenario } from './report/types.js';
import { renderVerdicts } from './report/verdicts.js';
import { columnNames, DEFAULT_SEED, defaultThreads, loadScenario, parseOverrides } from './run.js';

export const EXIT_EXPECTATIONS_FAILED = 1;

export interface CheckOptions {
  actions?: string;
  seed?: string;
  set?: string[];
  threads?: string;
  /** Read data files outside the scenario file's directory. */
  allowOutside?: boolean;
  junit?: string;
  out?: string;
}

export async function checkCommand(files: string[], opts: CheckOptions, io: Io, signal?: AbortSignal): Promise<number> {
  if (files.length === 0) {
    throw new InputError(undefined, '', 'no scenario given', 'Name the scenario files to check, such as idem-sim check scenarios/*.yaml.');
  }
  if (opts.junit === '-' && (opts.out === undefined || opts.out === '-')) {
    throw new InputError({ source: '--junit -' }, '', 'the JUnit XML and the table would both go to standard output',
      'Write the table elsewhere with --out FILE, or the XML with --junit FILE.');
  }
  const junit = opts.junit !== undefined ? new PendingOutput(opts.junit, files, '--junit') : null;
  let out: PendingOutput | null = null;
  try {
    out = opts.out !== undefined ? new PendingOutput(opts.out, files) : null; // in the try: a bad --out gives back the --junit file
    const overrides = parseOverrides(opts);
    seedOption(opts.seed);
    const threads = opts.threads === undefined ? undefined : threadCount(opts.threads, io);
    const all = files.map((file) => ({ file, ...loadScenario(file, overrides, { allowOutside: opts.allowOutside === true }) }));
    // A glob such as scenarios/*.yaml takes in scenarios without goals: skip them, say so.
    const loaded = all.filter((l) => l.expectations.length > 0);
    if (loaded.length === 0) {
      throw new InputError({ source: files.length === 1 ? files[0] as string : files.join(', ') }, 'expect', 'has no expectations to check',
        'Add an expect: block, for example expect: {duplicates_per_1000: "<= 0.5"}.');
    }
    for (const l of all) if (l.expectations.length === 0) io.stderr.write(`idem-sim: skipped ${l.file}: it has no expect: block\n`);
    const names = columnNames(loaded.map((l) => l.file));
    const checked: CheckedScenario[] = [];
    const commandActions = loaded.reduce((sum, l) => sum + l.scenario.actions, 0);
    for (const [k, l] of loaded.entries()) {
      const seed = opts.seed ?? l.seed ?? DEFAULT_SEED;
      const bar = progressBar(io.stderr, names[k] as string);
      const outcome = await runScenario({
        scenario: l.scenario, seed, threads: threads ?? defaultThreads(commandActions), onProgress: bar.update,
        ...(signal ? { signal } : {}),
      }).finally(() => bar.stop());
      const metrics = outcome.state.finish(l.scenario);
      checked.push({ name: names[k] as string, file: l.file, seed, verdicts: l.expectations.map((e) => check(e, metrics)) });
    }
    const replay = ['idem-sim', 'check', ...files, ...(opts.allowOutside ? ['--allow-outside'] : []), ...(opts.set ?? []).flatMap((s) => ['--set', s]),
      ...(opts.actions !== undefined ? ['--actions', opts.actions] : []), ...(opts.seed !== undefined ? ['--seed', opts.seed] : [])];
    const footer = `seed ${[...new Set(checked.map((c) => c.seed))].join(', ')}; idem-sim ${toolVersion()}; replay: ${replay.map(shellQuote).join(' ')}`;
    const text = renderVerdicts(checked, chalkFor(out ? {} : io.stdout, io.env), footer);
    junit?.commit(renderJunit(checked, toolVersion()), io.stdout);
    if (out) out.commit(text, io.stdout);
    else io.stdout.write(text);
    return checked.every((c) => c.verdicts.every((v) => v.pass)) ? 0 : EXIT_EXPECTATIONS_FAILED;
  } finally {
    junit?.abort();
    out?.abort();
  }
}
