/**
 * `idem-sim reconcile [FILE] [--postgres URL --query SQL] [--expect ...]`: the source opened and
 * closed (reconcile/open.ts: a file, or a query), its readings made (reconcile/reconcile.ts,
 * which every source shares), a gate's expectations judged on them (reconcile/gate.ts), and
 * every report written whole (report/reconcile-gate-outputs.ts); exit 1 when an expectation
 * fails. With a gate, an error that ends the command is in its reports too (then exit 2).
 */
import { InputError } from '../scenario/errors.js';
import { toolVersion, type Io } from '../io/streams.js';
import { readUserFile } from '../io/files.js';
import { withOutput } from '../io/output.js';
import { writeGateReports } from '../io/step-summary.js';
import { checkGate, gateAsked, type GateExpectation } from '../reconcile/gate.js';
import { gateExpectations } from '../reconcile/gate-file.js';
import { effectsSource, reconcileSource } from '../reconcile/open.js';
import { withAgainst } from '../reconcile/against.js';
import { scenarioName } from '../scenario/names.js';
import { loadScenario } from './shared/load.js';
import type { ReconcileCommandFormat } from '../report/reconcile-command-formats.js';
import { reconcileErrorTexts, reconcileTexts, type ReconcileTexts } from '../report/reconcile-gate-outputs.js';
import type { Given } from './settings/given.js';

/** `reconcile`'s command line as commander parsed it (reconcile-declare.ts declares it). */
export interface ReconcileCommandOptions {
  window?: Given<number>; retention?: Given<number>; step?: Given<number>; format?: Given<ReconcileCommandFormat>;
  keyColumn?: string; timeColumn?: string; idempotencyColumn?: string; toolColumn?: string;
  showKeys?: boolean; sort?: boolean; out?: string; postgres?: string; query?: string; statementTimeout?: Given<number>;
  expect?: Given<GateExpectation>[]; expectFile?: string; junit?: string; summary?: string; scenario?: string;
}

export async function reconcileCommand(file: string | undefined, o: ReconcileCommandOptions, io: Io): Promise<number> {
  // Each option's error in the order of --help: the durations, then the format.
  const [windowMs, retentionMs, stepMs, format] = [o.window?.value, o.retention?.value, o.step?.value, o.format?.value ?? 'table'];
  const columns = { business_key: o.keyColumn, at: o.timeColumn, idempotency_key: o.idempotencyColumn, tool: o.toolColumn };
  const source = effectsSource({ file, postgres: o.postgres, query: o.query, statementTimeoutMs: o.statementTimeout?.value });
  const given = o.expect?.map((e) => e.value) ?? [];
  const gate = gateAsked({ expectations: given.length, expectFile: o.expectFile, junit: o.junit, summary: o.summary, out: o.out, format });
  const inputs = [...source.inputs, ...[o.expectFile, o.scenario].filter((f) => f !== undefined)];
  const model = o.scenario === undefined ? undefined : loadScenario(o.scenario, []);
  return withOutput(io, o.junit, inputs, (junit) => withOutput(io, o.summary, inputs, (summary) => withOutput(io, o.out, inputs, async (out) => {
    const writing = { format, version: toolVersion(), style: out.style(), junit: o.junit !== undefined, summary: o.summary !== undefined };
    const emit = (t: ReconcileTexts): number => {
      writeGateReports(io, { out, junit, summary: o.summary === undefined ? undefined : summary }, t);
      if (t.stderr !== undefined) io.stderr.write(t.stderr);
      return t.status;
    };
    try {
      const expectFile = o.expectFile === undefined ? undefined : { text: readUserFile(o.expectFile, 'the expectations file'), source: o.expectFile };
      const expectations = gate ? gateExpectations(given, expectFile, retentionMs !== undefined) : undefined;
      const read = await reconcileSource(source, { columns, windowMs, retentionMs, stepMs, showKeys: o.showKeys, sort: o.sort });
      const r = model === undefined ? read : await withAgainst(read, model.scenario, scenarioName(o.scenario as string), model.seed ?? '1');
      return emit(reconcileTexts(r, expectations && checkGate(expectations, r), writing));
    } catch (e) {
      if (gate && e instanceof InputError) emit(reconcileErrorTexts(e.message, e.origin, source.where, writing));
      throw e;
    }
  }), '--summary'), '--junit');
}
