/**
 * `idem-sim reconcile [FILE] [--postgres URL --query SQL]`: the source opened and closed
 * (reconcile/open.ts: a file, or a query), its readings made (reconcile/reconcile.ts, which
 * every source shares) and written whole (report/reconcile-outputs.ts).
 */
import { toolVersion, type Io } from '../io/streams.js';
import { withOutput } from '../io/output.js';
import { effectsSource, reconcileSource } from '../reconcile/open.js';
import type { ReconcileFormat } from '../report/reconcile-formats.js';
import { reconcileText } from '../report/reconcile-outputs.js';
import type { Given } from './settings/given.js';

/** `reconcile`'s command line as commander parsed it (reconcile-declare.ts declares it). */
export interface ReconcileCommandOptions {
  window?: Given<number>; retention?: Given<number>; step?: Given<number>; format?: Given<ReconcileFormat>;
  keyColumn?: string; timeColumn?: string; idempotencyColumn?: string; toolColumn?: string;
  showKeys?: boolean; sort?: boolean; out?: string; postgres?: string; query?: string; statementTimeout?: Given<number>;
}

export async function reconcileCommand(file: string | undefined, o: ReconcileCommandOptions, io: Io): Promise<number> {
  // Each option's error in the order of --help: the durations, then the format.
  const [windowMs, retentionMs, stepMs, format] = [o.window?.value, o.retention?.value, o.step?.value, o.format?.value ?? 'table'];
  const columns = { business_key: o.keyColumn, at: o.timeColumn, idempotency_key: o.idempotencyColumn, tool: o.toolColumn };
  const source = effectsSource({ file, postgres: o.postgres, query: o.query, statementTimeoutMs: o.statementTimeout?.value });
  return withOutput(io, o.out, source.inputs, async (out) => {
    const r = await reconcileSource(source, { columns, windowMs, retentionMs, stepMs, showKeys: o.showKeys, sort: o.sort });
    out.write(reconcileText(r, format, toolVersion(), out.style()));
    return 0;
  });
}
