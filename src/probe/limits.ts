/**
 * Sizes the probe accepts, checked before anything is allocated or connected: the stored
 * response, the records and connections, and the bytes it writes to the store.
 */
import { InputError } from '../scenario/errors.js';
import { DEFAULT_MEASURE_RECORDS } from './defaults.js';
import { KEY_LENGTH } from './agent.js';
import { FINGERPRINT_LENGTH } from './setup.js';

/**
 * Largest stored response body: 1 MiB (1,048,576 bytes). A stored idempotency response is an
 * API reply; 1 MiB is over twice the 400 KB item limit of DynamoDB, where AWS Powertools keeps
 * its idempotency records, and far above a typical JSON reply, while the probe's records
 * still fit the write budget below by the hundred.
 */
export const MAX_RESPONSE_BYTES = 1_048_576;
/** Most record content (key, fingerprint, body) each phase writes: 256 MiB for the measurement, and as much for the replay. */
export const MAX_WRITE_BYTES = 256 * 1_048_576;
/** Most records written to measure bytes per record: 100,000 (the measurement's precision stops improving long before). */
export const MAX_MEASURE_RECORDS = 100_000;
/** Most connections the probe opens: 128 (twice the 64 that `transactional` gets by default; PostgreSQL allows 100 by default). */
export const MAX_CONNECTIONS = 128;

const MiB = (n: number): string => `${Math.round((n / 1_048_576) * 10) / 10} MiB`;
const thousands = (n: number): string => n.toLocaleString('en-US');

/** What one record holds (key, fingerprint, body), in bytes of ASCII. */
export function contentBytes(responseBytes: number): number {
  return KEY_LENGTH + FINGERPRINT_LENGTH + responseBytes;
}

/** The response size: --response-bytes, else what `record_bytes` leaves; throws above MAX_RESPONSE_BYTES. */
export function checkResponseBytes(given: { flag: string; text: string; value: number } | undefined, recordBytes: number, source: string): number {
  if (given !== undefined) {
    if (given.value > MAX_RESPONSE_BYTES) {
      throw new InputError({ source: `${given.flag} ${given.text}` }, '', `the probe stores a response of at most ${thousands(MAX_RESPONSE_BYTES)} bytes (1 MiB)`,
        `Give ${given.flag} ${thousands(MAX_RESPONSE_BYTES)} or less.`);
    }
    return given.value;
  }
  const body = Math.max(0, recordBytes - KEY_LENGTH - FINGERPRINT_LENGTH);
  if (!(body <= MAX_RESPONSE_BYTES)) {
    throw new InputError({ source }, 'idempotency.record_bytes', `leaves a response of ${body > 1e15 ? String(body) : thousands(Math.ceil(body))} bytes to store, and the probe stores at most ${thousands(MAX_RESPONSE_BYTES)} (1 MiB)`,
      `Give --response-bytes ${thousands(MAX_RESPONSE_BYTES)} or less (the probe then ignores record_bytes for the body), or record_bytes ${thousands(MAX_RESPONSE_BYTES + KEY_LENGTH + FINGERPRINT_LENGTH)} or less.`);
  }
  return Math.ceil(body);
}

/** Records for the measurement: --records (at most MAX_MEASURE_RECORDS and the write budget), else the default within the budget. */
export function measureRecords(given: string | undefined, value: number | undefined, responseBytes: number): number {
  const perRecord = contentBytes(responseBytes);
  const budget = Math.max(1, Math.floor(MAX_WRITE_BYTES / perRecord));
  if (value === undefined) return Math.min(DEFAULT_MEASURE_RECORDS, budget);
  if (value > MAX_MEASURE_RECORDS) {
    throw new InputError({ source: `--records ${given}` }, '', `the probe measures at most ${thousands(MAX_MEASURE_RECORDS)} records`, 'Give --records 1000 (the default) or up to 100,000.');
  }
  if (value > budget) {
    throw new InputError({ source: `--records ${given}` }, '', `${thousands(value)} records of ${thousands(perRecord)} bytes would write ${MiB(value * perRecord)}, and the probe writes at most ${MiB(MAX_WRITE_BYTES)} to measure`,
      `Give --records ${thousands(budget)} or less, or a smaller --response-bytes.`);
  }
  return value;
}

/** The replay writes about one record per primary action: at most MAX_WRITE_BYTES of them (twins with keys of their own add their share, at most workload.twin_probability more). */
export function checkReplayBytes(actions: number, responseBytes: number): void {
  const perRecord = contentBytes(responseBytes);
  if (actions * perRecord <= MAX_WRITE_BYTES) return;
  throw new InputError({ source: `--actions ${actions}` }, '', `${thousands(actions)} actions with records of ${thousands(perRecord)} bytes would write ${MiB(actions * perRecord)}, and the probe's replay writes at most ${MiB(MAX_WRITE_BYTES)}`,
    `Give --actions ${thousands(Math.max(1, Math.floor(MAX_WRITE_BYTES / perRecord)))} or less, or a smaller --response-bytes.`);
}

export function checkConnections(given: string, value: number): number {
  if (value > MAX_CONNECTIONS) {
    throw new InputError({ source: `--connections ${given}` }, '', `the probe opens at most ${MAX_CONNECTIONS} connections`,
      `Give --connections ${MAX_CONNECTIONS} or less (the default is 8; transactional: enough for its running handlers, at most 64).`);
  }
  return value;
}
