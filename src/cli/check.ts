/** `idem-sim check SCENARIO ...`: run each scenario and test its `expect:` block. Exit 1 if any fails. */
import { check } from '../scenario/expect.js';
import { InputError } from '../scenario/errors.js';
import { toolVersion, type Io } from './io.js';
import { seedOption } from './options.js';
import { renderJunit } from './report/junit.js';
import type { CheckedScenario } from './report/types.js';
import { renderVerdicts } from './report/verdicts.js';
import { columnNames, scenarioReader, type LoadedScenario } from './shared/load.js';
import { withOutput } from './shared/output.js';
import { ReplayLine } from './shared/replay.js';
import { runSeed, simulate, threadSetting, type SimulationOptions } from './shared/simulate.js';

export const EXIT_EXPECTATIONS_FAILED = 1;

export interface CheckOptions extends SimulationOptions {
  junit?: string;
  out?: string;
}

type Loaded = LoadedScenario & { file: string };

export async function checkCommand(files: string[], opts: CheckOptions, io: Io, signal?: AbortSignal): Promise<number> {
  if (files.length === 0) {
    throw new InputError(undefined, '', 'no scenario given', 'Name the scenario files to check, such as idem-sim check scenarios/*.yaml.');
  }
  if (opts.junit === '-' && (opts.out === undefined || opts.out === '-')) {
    throw new InputError({ source: '--junit -' }, '', 'the JUnit XML and the table would both go to standard output',
      'Write the table elsewhere with --out FILE, or the XML with --junit FILE.');
  }
  // --junit is opened first: a bad --out then gives the --junit file back.
  return withOutput(io, opts.junit, files, (junit) => withOutput(io, opts.out, files, async (out) => {
    const read = scenarioReader(opts);
    seedOption(opts.seed);
    const threads = threadSetting(opts.threads, io);
    const loaded = withExpectations(files.map((file) => ({ file, ...read(file) })), files, io);
    const checked = await checkEach(loaded, opts, threads, io, signal);
    const replay = new ReplayLine('check', files, opts).overrides(opts).option('--seed', opts.seed).text();
    const footer = `seed ${[...new Set(checked.map((c) => c.seed))].join(', ')}; idem-sim ${toolVersion()}; replay: ${replay}`;
    const text = renderVerdicts(checked, out.style(), footer);
    if (opts.junit !== undefined) junit.write(renderJunit(checked, toolVersion()));
    out.write(text);
    return checked.every((c) => c.verdicts.every((v) => v.pass)) ? 0 : EXIT_EXPECTATIONS_FAILED;
  }), '--junit');
}

/** The scenarios that have goals: a glob such as scenarios/*.yaml takes in others, which are skipped, saying so. */
function withExpectations(all: readonly Loaded[], files: readonly string[], io: Io): Loaded[] {
  const loaded = all.filter((l) => l.expectations.length > 0);
  if (loaded.length === 0) {
    throw new InputError({ source: files.length === 1 ? files[0] as string : files.join(', ') }, 'expect', 'has no expectations to check',
      'Add an expect: block, for example expect: {duplicates_per_1000: "<= 0.5"}.');
  }
  for (const l of all) if (l.expectations.length === 0) io.stderr.write(`idem-sim: skipped ${l.file}: it has no expect: block\n`);
  return loaded;
}

async function checkEach(loaded: readonly Loaded[], opts: CheckOptions, threads: (actions: number) => number, io: Io, signal: AbortSignal | undefined): Promise<CheckedScenario[]> {
  const names = columnNames(loaded.map((l) => l.file));
  const commandActions = loaded.reduce((sum, l) => sum + l.scenario.actions, 0);
  const checked: CheckedScenario[] = [];
  for (const [k, l] of loaded.entries()) {
    const seed = runSeed(opts.seed, l.seed);
    const name = names[k] as string;
    const outcome = await simulate(io, name, { scenario: l.scenario, seed, threads: threads(commandActions) }, signal);
    const metrics = outcome.state.finish(l.scenario);
    checked.push({ name, file: l.file, seed, verdicts: l.expectations.map((e) => check(e, metrics)) });
  }
  return checked;
}
