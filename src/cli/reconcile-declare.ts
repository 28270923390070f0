/**
 * Registers `reconcile` on the program (one entry of main.ts's list): its options, --format
 * among them (read against report/reconcile-formats.ts, which loads no reporter); reconcile.ts
 * and the readings load when it runs.
 */
import type { Command } from 'commander';
import { withChoices } from '../completion/choices.js';
import type { Io } from '../io/streams.js';
import { durationOption } from '../reconcile/durations.js';
import { statementTimeoutOption } from '../reconcile/postgres-failures.js';
import { formatList } from '../report/formats.js';
import { expectOption } from '../reconcile/gate.js';
import { RECONCILE_COMMAND_FORMAT_INFO, RECONCILE_COMMAND_FORMATS, type ReconcileCommandFormat } from '../report/reconcile-command-formats.js';
import { oneOf } from './options.js';
import { parsedOption, repeatedOption } from './settings/given.js';
import type { ReconcileCommandOptions } from './reconcile.js';

/** `reconcile --format NAME`: one of RECONCILE_FORMATS. */
export const reconcileFormatOf = (text: string): ReconcileCommandFormat => oneOf('--format', text, RECONCILE_COMMAND_FORMATS) as ReconcileCommandFormat; // oneOf checked it

/** `reconcile`: the duplicates a production table holds, diagnosed. */
export function declareReconcile(cmd: Command, { io, setCode }: { io: Io; setCode: (code: number) => void }): void {
  cmd.command('reconcile')
    .description('count the business-level duplicates an export of effects (CSV or JSON lines) or a PostgreSQL query holds, per tool and overall, and diagnose each from its idempotency key and its gap')
    .argument('[file]', 'the effects: CSV with a header row, or JSON lines (.jsonl, .ndjson, .json), one row per effect, in time order (or --postgres and --query)')
    .option('--postgres <url>', 'read the effects from PostgreSQL instead of a file: the URL (its password never shown; PGPASSWORD or ~/.pgpass keep it off the command line)')
    .option('--query <sql>', 'with --postgres: one SELECT whose rows are the effects, in time order (run through a cursor in a read-only transaction)')
    .addOption(parsedOption('--statement-timeout <duration>', 'with --postgres: how long PostgreSQL may take over each statement of the query (default 5m)', statementTimeoutOption))
    .addOption(parsedOption('--window <duration>', "an effect within this of its business key's first effect is a duplicate (default 1h)", (t) => durationOption('--window', t)))
    .addOption(parsedOption('--retention <duration>', "the key store's retention: a duplicate with the first effect's key later than this is diagnosed after expiry", (t) => durationOption('--retention', t, true)))
    .addOption(parsedOption('--step <duration>', 'the buckets over time of --format csv and json (default 1h)', (t) => durationOption('--step', t)))
    .option('--key-column <name>', 'the column of the business key (default: business_key, order_id, order_line_id, ... as found)')
    .option('--time-column <name>', 'the column of the time (default: at, created_at, occurred_at, timestamp, ... as found)')
    .option('--idempotency-column <name>', 'the column of the idempotency key (default: idempotency_key, idem_key, request_key, dedup_key, ... if found)')
    .option('--tool-column <name>', 'the column of the tool (default: tool, tool_name, action, operation, kind, type if found; else one tool)')
    .option('--show-keys', 'show the most duplicated business keys as they are, not as hashes (they can be personal data)')
    .option('--sort', 'sort rows that are not in time order, in memory (at most 1,000,000)')
    .option('--scenario <file>', 'hold the duplicates against this scenario run for the same traffic: an exact Poisson test, and the twins it predicts (docs/reconcile.md)')
    .addOption(repeatedOption('--expect <expectation>', "a gate: [TOOL:]READING OP VALUE, such as 'duplicates_per_1000 <= 5' (repeatable); exit 1 if one fails", expectOption))
    .option('--expect-file <file>', 'a gate: the expectations under expect: in a YAML file, as a scenario has them (per tool under expect.tools)')
    .option('--junit <file>', 'with a gate: also write JUnit XML for CI systems')
    .option('--summary <file>', 'with a gate: write a Markdown summary there (--format github without it: appended to the file $GITHUB_STEP_SUMMARY names, when set)')
    .addOption(withChoices(parsedOption('--format <format>', formatList(RECONCILE_COMMAND_FORMATS, RECONCILE_COMMAND_FORMAT_INFO), reconcileFormatOf), () => RECONCILE_COMMAND_FORMATS))
    .option('--out <file>', 'write the report to a file instead of stdout')
    .action(async (file: string | undefined, opts: ReconcileCommandOptions) => {
      const { reconcileCommand } = await import('./reconcile.js');
      setCode(await reconcileCommand(file, opts, io));
    });
}
