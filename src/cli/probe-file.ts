/** `size --from-probe FILE`: what a probe's JSON result (`probe --json --out FILE`) says about the store. */
import { InputError } from '../scenario/errors.js';
import { readUserFile } from '../io/files.js';

/** What `size --from-probe` takes from a probe's JSON result. */
export interface ProbeSizing {
  bytesPerRecord: number;
  ratePerS: number;
  retentionMs: number;
  source: string;
}

/** Reads `probe --json --out FILE`, with errors that say what is wrong with the file. */
export function readProbeFile(path: string): ProbeSizing {
  const text = readUserFile(path, 'the probe result');
  const fix = 'Give the file written by idem-sim probe SCENARIO --store URL --json --out FILE.';
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new InputError({ source: `--from-probe ${path}` }, '', 'is not JSON', fix);
  }
  const d = doc as { kind?: unknown; measurement?: { bytes_per_record?: unknown }; scenario?: { load?: { rate_per_s?: unknown }; idempotency?: { retention?: unknown } }; store?: { kind?: unknown; url?: unknown } };
  if (d?.kind !== 'probe') throw new InputError({ source: `--from-probe ${path}` }, '', 'is not a probe result (no "kind": "probe")', fix);
  const positive = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x) && x > 0;
  const bytesPerRecord = d.measurement?.bytes_per_record;
  const rate = d.scenario?.load?.rate_per_s;
  const retention = d.scenario?.idempotency?.retention;
  if (!positive(bytesPerRecord)) throw new InputError({ source: `--from-probe ${path}` }, 'measurement.bytes_per_record', 'is missing or not a positive number', fix);
  if (!positive(rate) || !positive(retention)) throw new InputError({ source: `--from-probe ${path}` }, 'scenario', 'lacks load.rate_per_s or idempotency.retention', fix);
  return {
    bytesPerRecord, ratePerS: rate, retentionMs: retention,
    source: `measured by idem-sim probe on ${String(d.store?.kind ?? 'a store')} (${path})`,
  };
}
