/**
 * The command line: parse, dispatch, and map errors to exit codes
 * (0 ok, 1 expectations failed, 2 bad input, 70 internal error, 128 + the signal's number when
 * stopped by SIGINT, SIGTERM or SIGHUP).
 */
import { Argument, Command, CommanderError, Option } from 'commander';
import { Interrupted } from '../exec/interrupted.js';
import { InputError } from '../scenario/errors.js';
import { printable } from '../scenario/printable.js';
import { STOP_SIGNALS, StopSignals } from './signals.js';
import { withChoices } from '../completion/choices.js';
import { formatList, writesSeries, RUN_FORMAT_INFO, RUN_FORMATS, SWEEP_FORMAT_INFO, SWEEP_FORMATS } from '../report/formats.js';
import { examplesHelp } from '../report/examples.js';
import { inputFailure } from '../exec/input-failure.js';
import { toolVersion, type Io } from '../io/streams.js';
import { declareLab } from './lab.js';
import { declareAlerts } from './alerts-declare.js';
import { declareFit } from './fit-declare.js';
import { declareCheck } from './check-declare.js';
import { declareExplain } from './explain-declare.js';
import { declareReconcile } from './reconcile-declare.js';
import { findOption, nonNegativeInteger, positiveInteger, positiveNumber, retentionOption, seriesStepOption, sweepMetricOption } from './options.js';
import { collect, parsedOption, repeatedOption } from './settings/given.js';
import { FORMAT_OPTION } from './settings/output.js';
import { SCENARIO_OPTIONS } from './settings/scenario.js';
import { SIMULATION_OPTIONS, simulationOptions } from './settings/simulation.js';
import { usageError } from './usage-error.js';
import { SHELLS, type Shell } from '../completion/shells.js';
import { STORE_LABELS, URL_EXAMPLES } from '../stores/registry.js';
import { DEFAULT_MEASURE_RECORDS, DEFAULT_PROBE_ACTIONS } from '../probe/defaults.js';
import { DEFAULT_MAX_POINTS } from '../sweeps/grid.js';
import { DEFAULT_LIMITS } from '../report/timeline-rows.js';
import { DEFAULT_TIMEOUT_MS } from '../inventory/limits.js';
import { DEFAULT_SCENARIO } from '../model/shape.js';
import { formatDuration } from '../scenario/duration.js';
import type { ReportOptions } from './html-report.js';
import type { MergeOptions } from './merge.js';
import type { ProbeOptions } from './probe.js';
import type { SizeOptions } from './size.js';
import type { SweepOptions } from './sweep.js';
import type { RunOptions } from './run.js';

// Commands load their modules when they run, so `--help` and `--version` start at once.

export const EXIT_OK = 0, EXIT_BAD_INPUT = 2, EXIT_INTERNAL = 70, EXIT_INTERRUPTED = 130;

/** What every command's action needs: the streams, the stop signal, and where its exit status goes. */
interface Context {
  io: Io;
  signal: AbortSignal;
  setCode: (code: number) => void;
}

/** The formats of `run` and of `sweep` (and both of `merge`), for completion (report/formats.ts loads no reporter). */
const runFormats = () => RUN_FORMATS;
const sweepFormats = () => SWEEP_FORMATS;
const mergeFormats = () => [...new Set([...SWEEP_FORMATS, ...RUN_FORMATS])];

/** The command line (exported for the completion tests, which read it as the script does). */
export function program(ctx: Context): Command {
  const { io } = ctx;
  const cmd = new Command('idem-sim')
    .description('Monte Carlo analysis of retries and idempotency keys for agent tool calls.')
    .version(toolVersion())
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      outputError: (s, write) => write(usageError(s)),
    })
    .addHelpText('after', `
Scenario durations are written 250ms, 2s, 5m, 1h or 7d (a number needs its unit; 0 stands alone);
probabilities are numbers from 0 to 1. See README.md and docs/model-decisions.md.

Exit status: 0 success, 1 an expectation failed (check), 2 bad input,
70 internal error (a bug), 130 / 143 / 129 stopped by SIGINT / SIGTERM / SIGHUP.`);

  for (const declare of [declareRun, declareSweep, declareCheck, declareExplain, declareAlerts, declareSize, declareReport, declareLab, declareProbe, declareInventory, declareFit, declareReconcile, declareMissions, declareMerge, declareSchema, declareCompletion]) declare(cmd, ctx);
  for (const sub of cmd.commands) {
    // Each subcommand's errors name it, and its help ends with its examples.
    sub.configureOutput({ ...cmd.configureOutput(), outputError: (s, write) => write(usageError(s, sub.name())) })
      .addHelpText('after', () => examplesHelp(sub.name(), process.cwd()));
  }
  return cmd;
}

/** `inventory`: an agent file's skeleton from an MCP server's tools (the SDK loads only with --stdio). */
function declareInventory(cmd: Command, { io, signal, setCode }: Context): void {
  cmd.command('inventory')
    .description("an agent file's skeleton from an MCP server's tools: a saved tools/list answer, or the server itself (--stdio)")
    .argument('[input...]', 'the JSON file of a tools/list answer; with --stdio, the command that starts the server (after --)')
    .option('--stdio', 'start the server with the command after -- and ask it over stdio, as MCP clients do')
    .option('--timeout <duration>', `with --stdio: time for the whole exchange (start, initialize, every page of tools/list), such as 30s (default ${formatDuration(DEFAULT_TIMEOUT_MS)})`)
    .addOption(new Option('--env <name[=value]>', "with --stdio: give the server this variable besides the SDK's safe ones (HOME, LOGNAME, PATH, SHELL, TERM, USER); NAME alone passes idem-sim's own value (repeatable)").argParser(collect))
    .option('--out <file>', 'write the skeleton to a file instead of stdout')
    .action(async (inputs: string[], opts: import('./inventory.js').InventoryOptions) => {
      const { inventoryCommand } = await import('./inventory.js');
      setCode(await inventoryCommand(inputs, opts, io, signal));
    });
}

/** `run`: simulate scenarios and report every metric. */
function declareRun(cmd: Command, { io, signal, setCode }: Context): void {
  simulationOptions(cmd.command('run')
    .description('simulate scenarios (the built-in lab defaults when none is given) and report every metric')
    .argument('[scenario...]', 'scenario files (YAML or JSON); several give one column each'), true)
    // The choices are RUN_FORMATS, checked when the command runs (and read by completion only).
    .addOption(withChoices(FORMAT_OPTION.run(formatList(RUN_FORMATS, RUN_FORMAT_INFO)), runFormats))
    .option('--json', 'print JSON with every metric, the resolved scenario, seed and version')
    .option('--out <file>', 'write the report to a file instead of stdout')
    .addOption(parsedOption('--series <step>', `count every event in buckets of STEP (such as 1m): JSON results[i].series, or --format ${formatList(RUN_FORMATS.filter(writesSeries))}`, seriesStepOption))
    .option('--effects-out <file>', 'write every execution as a production table holds it, with the model\'s truth apart: CSV, or JSON lines for .jsonl (docs/reconcile.md)')
    .action(async (files: string[], opts: RunOptions) => {
      const { runCommand, runSettings } = await import('./run.js');
      setCode(await runCommand(files, runSettings(opts), io, signal));
    });
}

/** `sweep`: a scenario over a grid of settings. */
function declareSweep(cmd: Command, { io, signal, setCode }: Context): void {
  simulationOptions(cmd.command('sweep')
    .description('run a scenario over a grid of settings (common random numbers); CSV for spreadsheets')
    .argument('<scenario>', 'the scenario file to vary'), true)
    .addOption(new Option('--vary <path=values>', 'a key and its values: a list (5m,1h,24h), a range (200ms..2s:10) or a log range (log:100ms..10s:9); repeat for a grid').argParser(collect))
    .addOption(withChoices(FORMAT_OPTION.sweep(formatList(SWEEP_FORMATS, SWEEP_FORMAT_INFO)), sweepFormats))
    .option('--json', 'the same as --format json')
    .option('--svg', 'write the charts as one standalone SVG (see docs/charts.md)')
    .addOption(withChoices(parsedOption('--metric <name>', 'metric of the heat map when two keys vary (default duplicates_per_1000); also backlog_cleared_ms.INCIDENT, recovered.INCIDENT, stable or alerts.NAME.READING, as expect: names them', sweepMetricOption),
      async () => (await import('../results/metric-paths.js')).SWEEP_METRIC_PATHS))
    .addOption(repeatedOption('--find <condition>', "mark the points meeting READING OP VALUE, such as 'backlog_cleared_ms.pause<=60s', and name the least value of the first key that does; repeat: all must hold", findOption))
    .addOption(parsedOption('--series <step>', 'judge the alerts on buckets of STEP, such as 5s (default 1m)', seriesStepOption))
    .option('--out <file>', 'write the report to a file instead of stdout')
    .addOption(parsedOption('--max-points <n>', `largest grid to run (default ${DEFAULT_MAX_POINTS})`, (text) => positiveInteger('--max-points', text)))
    .action(async (file: string, opts: SweepOptions) => {
      const { sweepCommand, sweepSettings } = await import('./sweep.js');
      setCode(await sweepCommand(file, sweepSettings(opts), io, signal));
    });
}

/** `size`: keys and memory of a key store. */
function declareSize(cmd: Command, { io, signal, setCode }: Context): void {
  simulationOptions(cmd.command('size')
    .description('keys and memory of a key store: keys per action × rate × retention')
    .argument('[scenario]', "a scenario to take keys per action from (simulated), and its rate and retention"), false)
    .addOption(parsedOption('--rate <n>', 'actions per second', (text) => positiveNumber('--rate', text)))
    .addOption(parsedOption('--retention <duration>', 'how long keys are kept, such as 1h', retentionOption))
    .addOption(parsedOption('--record-bytes <n>', `bytes per key record (default ${DEFAULT_SCENARIO.idempotency.record_bytes})`, (text) => positiveInteger('--record-bytes', text)))
    .option('--from-probe <file>', 'bytes per record measured by `probe --json --out FILE` (and its rate and retention if not given)')
    .option('--json', 'print JSON')
    .action(async (files: string | undefined, opts: SizeOptions) => {
      const { sizeCommand, sizeSettings } = await import('./size.js');
      setCode(await sizeCommand(files ? [files] : [], sizeSettings(opts), io, signal));
    });
}

/** `report`: one self-contained HTML page of a run. */
function declareReport(cmd: Command, { io, signal, setCode }: Context): void {
  simulationOptions(cmd.command('report')
    .description('one self-contained HTML page: headline metrics, duplicates by source, and the action timeline')
    .argument('[scenario]', 'the scenario or agent file (the built-in lab defaults when none is given)'), false)
    .option('--out <file>', 'write the page to a file instead of stdout (such as report.html)')
    .option('--tool <name>', 'of an agent file, this tool\'s full report (without it, the agent\'s page)')
    .option('--svg', 'write only the action timeline, as a standalone SVG')
    .addOption(parsedOption('--rows <n>', `most timeline rows for actions that had something happen to them (default ${DEFAULT_LIMITS.eventfulRows})`, (text) => positiveInteger('--rows', text)))
    .addOption(parsedOption('--series <step>', 'chart the run over time in buckets of STEP, such as 1m (default 1m with incidents, alerts or load.profile)', seriesStepOption))
    .option('--at <time>', 'centre the action timeline on this time of the run, such as 25m (default: the first incident\'s start, if any)')
    .action(async (file: string | undefined, opts: ReportOptions) => {
      const { reportCommand, reportSettings } = await import('./html-report.js');
      setCode(await reportCommand(file, reportSettings(opts), io, signal));
    });
}

/** `probe`: the scenario's requests against a real key store. */
function declareProbe(cmd: Command, { io, signal, setCode }: Context): void {
  cmd.command('probe')
    .description(`run the scenario's requests against a real ${STORE_LABELS} key store: duplicates, 409s and bytes per record beside the model's`)
    .argument('[scenario]', 'the scenario file (its idempotency.scope must not be none)')
    .option('--store <url>', `the store: ${URL_EXAMPLES}`)
    .addOption(parsedOption('--actions <n>', `primary actions in the probe's stream (default ${DEFAULT_PROBE_ACTIONS})`, (text) => positiveInteger('--actions', text)))
    .addOption(SIMULATION_OPTIONS.seed('random seed (overrides the file; default 1)'))
    .addOption(SCENARIO_OPTIONS.set('override one key, e.g. idempotency.claim=check_then_act (repeatable)'))
    .addOption(parsedOption('--speedup <x>', 'scenario time per real time (default: up to 10, as fast as the store keeps up)', (text) => positiveNumber('--speedup', text)))
    .addOption(parsedOption('--connections <n>', 'connections to the store (default 8; transactional: enough for its running handlers)', (text) => positiveInteger('--connections', text)))
    .addOption(parsedOption('--response-bytes <n>', 'size of the stored response (default: record_bytes less the key and fingerprint)', (text) => nonNegativeInteger('--response-bytes', text)))
    .addOption(parsedOption('--records <n>', `records written to measure bytes per record (default ${DEFAULT_MEASURE_RECORDS})`, (text) => positiveInteger('--records', text)))
    .option('--keep', 'leave the keys (or schema) in the store for inspection, until they expire')
    .addOption(SCENARIO_OPTIONS.allowOutside())
    .option('--clean-up', 'instead of probing, remove what probes left in --store (killed ones): see below')
    .option('--force', 'with --clean-up: also leftovers that have not expired yet (never one a running probe holds)')
    .option('--json', 'print JSON with every count, latency and measurement (for size --from-probe)')
    .option('--out <file>', 'write the report to a file instead of stdout')
    .addHelpText('after', `
The probe writes only under a fresh Redis key prefix idem-sim:<8 hex>: or PostgreSQL schema
idem_sim_<8 hex>, and removes it when it ends, on an error, and on SIGINT, SIGTERM or SIGHUP.
A probe killed outright (SIGKILL) cannot: every Redis key it wrote expires by itself (at most
1 h plus twice the replay's expected run time after it was written), and each schema records
its expiry in its comment. To remove such leftovers:
  idem-sim probe --clean-up --store URL           those whose expiry has passed
  idem-sim probe --clean-up --force --store URL   all, expired or not
Either way it removes only namespaces of that name that idem-sim marked as its own and that
no running probe holds (PostgreSQL: the probe's advisory lock; Redis: its lease key, which
lapses 15 s after the probe stops), and nothing else in the store.`)
    .action(async (file: string | undefined, opts: ProbeOptions) => {
      const { probeCommand, probeSettings } = await import('./probe.js');
      setCode(await probeCommand(file ? [file] : [], probeSettings(opts), io, signal));
    });
}

/** `missions`: the guide's missions. */
function declareMissions(cmd: Command, { io, setCode }: Context): void {
  cmd.command('missions')
    .description("list the guide's missions: scenarios whose check fails until you fix their settings")
    .action(async () => {
      const { missionsCommand } = await import('./missions.js');
      setCode(missionsCommand(io));
    });
}

/** `merge`: the parts of a sharded run or sweep as one result. */
function declareMerge(cmd: Command, { io, setCode }: Context): void {
  cmd.command('merge')
    .description('combine the partial results of `run --shard i/n` into the result of the whole run')
    .argument('<part...>', 'partial result files, one per shard')
    .option('--json', 'print JSON (byte-identical to the unsharded `run --json`)')
    .addOption(withChoices(FORMAT_OPTION.merge(`for a run's parts: ${formatList(RUN_FORMATS)}; for a sweep's: ${formatList(SWEEP_FORMATS)} (table by default, as run and sweep)`), mergeFormats))
    .option('--svg', 'for sweeps: the charts as one SVG, as `sweep --svg`')
    .option('--out <file>', 'write the report to a file instead of stdout')
    .action(async (files: string[], opts: MergeOptions) => {
      const { mergeCommand, mergeSettings } = await import('./merge.js');
      setCode(await mergeCommand(files, mergeSettings(opts), io));
    });
}

/** `schema`: the JSON Schema of scenario files. */
function declareSchema(cmd: Command, { io, setCode }: Context): void {
  cmd.command('schema')
    .description('print the JSON Schema of scenario files (for editor completion and checks)')
    .option('--out <file>', 'write it to a file instead of stdout')
    .action(async (opts: { out?: string }) => {
      const [{ scenarioSchema }, { withOutput }] = await Promise.all([import('../scenario/schema.js'), import('../io/output.js')]);
      await withOutput(io, opts.out, [], (out) => out.write(`${JSON.stringify(scenarioSchema(), null, 2)}\n`));
      setCode(EXIT_OK);
    });
}

/** `completion`: a shell's completion script, read from this very program. */
function declareCompletion(cmd: Command, { io, setCode }: Context): void {
  cmd.command('completion')
    .description('print a completion script for bash, zsh or fish (see docs/command-line.md)')
    .addArgument(new Argument('<shell>', 'the shell to complete in').choices(SHELLS))
    .action(async (shell: Shell) => {
      const { completionScript } = await import('../completion/completion.js');
      io.stdout.write(await completionScript(cmd, shell));
      setCode(EXIT_OK);
    });
}

/**
 * Runs one command line. `stops` listens for the stop signals: the launcher's, listening since
 * before the program loaded, which it settles with the returned status; without it, main
 * listens while the command runs (a caller in its own process, such as a test).
 */
export async function main(argv: string[], io: Io = { stdout: process.stdout, stderr: process.stderr, env: process.env }, stops?: StopSignals): Promise<number> {
  let code = EXIT_OK;
  const listening = stops ?? new StopSignals({ stdout: io.stdout, stderr: io.stderr, exit: (c) => process.exit(c) });
  try {
    if (listening.signal.aborted) throw new Interrupted(); // a signal while the program loaded
    const cli = program({ io, signal: listening.signal, setCode: (c) => { code = c; } });
    if (argv[2] === 'help' && argv[3] !== undefined && !cli.commands.some((c) => c.name() === argv[3])) throw new InputError(undefined, '', `unknown command '${printable(argv[3])}'`, 'Run idem-sim --help for usage.');
    if (argv.length <= 2) {
      cli.outputHelp();
      return EXIT_OK;
    }
    await cli.parseAsync(argv);
    return code;
  } catch (e) {
    if (e instanceof InputError) {
      io.stderr.write(`idem-sim: error: ${e.message}\n`);
      return EXIT_BAD_INPUT;
    }
    if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT_OK : EXIT_BAD_INPUT;
    if (e instanceof Interrupted) {
      // A report written as its work went (shared/output.ts, `stopped`) says where its part is.
      io.stderr.write(`idem-sim: interrupted by ${listening.stoppedBy}; ${'written' in e ? String(e.written) : 'nothing was written'}\n`);
      return STOP_SIGNALS[listening.stoppedBy];
    }
    const theInputs = inputFailure(e);
    if (theInputs !== undefined) {
      io.stderr.write(`idem-sim: error: ${theInputs}\n`);
      return EXIT_BAD_INPUT;
    }
    // A driver's error that escaped as a bug must not print the store's password either.
    const { hideSecrets } = await import('../stores/redact.js');
    io.stderr.write(`idem-sim: internal error: ${printable(hideSecrets((e as Error).message ?? String(e)))}\nThis is a bug in idem-sim; please report it with the command you ran.\n`);
    if (io.env['IDEM_SIM_DEBUG']) io.stderr.write(`${hideSecrets((e as Error).stack ?? '')}\n`);
    return EXIT_INTERNAL;
  } finally {
    if (stops === undefined) listening.close();
  }
}
