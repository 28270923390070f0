/**
 * `idem-sim reconcile FILE`: the effects file opened (reconcile/file-rows.ts), its readings made
 * (reconcile/reconcile.ts, which every source shares) and written whole (report/reconcile-outputs.ts).
 */
import { toolVersion, type Io } from '../io/streams.js';
import { withOutput } from '../io/output.js';
import { openEffectsFile } from '../reconcile/file-rows.js';
import { reconcileRows } from '../reconcile/reconcile.js';
import type { ReconcileFormat } from '../report/reconcile-formats.js';
import { reconcileText } from '../report/reconcile-outputs.js';
import type { Given } from './settings/given.js';

/** `reconcile`'s command line as commander parsed it (reconcile-declare.ts declares it). */
export interface ReconcileCommandOptions {
  window?: Given<number>; retention?: Given<number>; step?: Given<number>; format?: Given<ReconcileFormat>;
  keyColumn?: string; timeColumn?: string; idempotencyColumn?: string; toolColumn?: string;
  showKeys?: boolean; sort?: boolean; out?: string;
}

export async function reconcileCommand(file: string, o: ReconcileCommandOptions, io: Io): Promise<number> {
  // Each option's error in the order of --help: the durations, then the format.
  const [windowMs, retentionMs, stepMs, format] = [o.window?.value, o.retention?.value, o.step?.value, o.format?.value ?? 'table'];
  const columns = { business_key: o.keyColumn, at: o.timeColumn, idempotency_key: o.idempotencyColumn, tool: o.toolColumn };
  return withOutput(io, o.out, [file], async (out) => {
    const rows = await openEffectsFile(file);
    try {
      const r = await reconcileRows(rows, { columns, windowMs, retentionMs, stepMs, showKeys: o.showKeys, sort: o.sort });
      out.write(reconcileText(r, format, toolVersion(), out.style()));
    } finally {
      await rows.close();
    }
    return 0;
  });
}
