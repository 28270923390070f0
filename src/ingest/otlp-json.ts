/**
 * OpenTelemetry's OTLP/JSON (the protobuf messages' JSON mapping): one export request, or one a
 * line as the Collector's file exporter writes them. Read as untrusted data: every field's type
 * is checked where it is used, 64-bit integers come as numbers or decimal strings, enums as
 * numbers or names; a JSON error names its line and column, never the text.
 */
import { MAX_JSON_CONTAINERS, MAX_JSON_DEPTH } from './limits.js';
import { jsonShapeProblem } from './json-shape.js';
import { refuse, type Source } from './source.js';

export type Json = Readonly<Record<string, unknown>>;

/** The position a JSON.parse error names, as a line and column of `text`. */
function place(text: string, message: string): { line: number; col: number } | undefined {
  const at = /position (\d+)/.exec(message);
  if (!at) return undefined;
  const before = text.slice(0, Number(at[1])).split('\n');
  return { line: before.length, col: (before.at(-1)?.length ?? 0) + 1 };
}

/** Refuses JSON nested deeper than MAX_JSON_DEPTH or holding more than MAX_JSON_CONTAINERS objects and arrays (json-shape.ts), before anything is built. */
function checkShape(body: string, src: Source, what: string): void {
  const wrong = jsonShapeProblem(body, MAX_JSON_DEPTH, MAX_JSON_CONTAINERS);
  if (wrong) refuse(src, wrong.line, wrong.problem, `Give ${what}: an OTLP export nests 7 levels deep; a larger export can be cut into files.`);
}

/** The documents of an export: the text as one JSON value, or each non-blank line as one. */
export function otlpDocuments(text: string, src: Source, what: string): unknown[] {
  const body = text.replace(/^\uFEFF/, '');
  checkShape(body, src, what);
  try {
    return [JSON.parse(body)];
  } catch (whole) {
    const lines = body.split('\n');
    if (lines.filter((l) => l.trim() !== '').length < 2) {
      const at = place(body, (whole as Error).message);
      refuse(src, at?.line, `is not JSON${at ? ` (line ${at.line}, column ${at.col})` : ''}`, `Give ${what}: the JSON an OTLP exporter writes, one export a line or one in all.`);
    }
    return lines.flatMap((line, i) => {
      if (line.trim() === '') return [];
      try { return [JSON.parse(line)]; } catch {
        return refuse(src, i + 1, `line ${i + 1} (${line.length} characters) is not JSON`, `Give ${what}: the JSON an OTLP exporter writes, one export a line or one in all.`);
      }
    });
  }
}

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
export const listOf = (v: unknown): readonly unknown[] => (Array.isArray(v) ? v : []);
export const objectsOf = (v: unknown): readonly Json[] => listOf(v).filter(isObject);

/** A number written as one or as a decimal string (OTLP's 64-bit integers); undefined otherwise. */
export function numberOf(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/.test(v)) return Number(v);
  return undefined;
}

/** A nanosecond time (a decimal string of up to 20 digits, or a number), exactly; undefined otherwise. */
export function nanosOf(v: unknown): bigint | undefined {
  if (typeof v === 'string' && /^[0-9]{1,20}$/.test(v)) return BigInt(v);
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  return undefined;
}

/** An attribute's value as text (strings, numbers and booleans; other kinds are not matched on). */
function attributeText(v: unknown): string | undefined {
  if (!isObject(v)) return undefined;
  for (const key of ['stringValue', 'intValue', 'doubleValue', 'boolValue']) {
    const x = v[key];
    if (typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean') return String(x);
  }
  return undefined;
}

/** A list of OTLP attributes ({key, value}) as labels, added to `into`. */
export function attributes(list: unknown, into = new Map<string, string>()): Map<string, string> {
  for (const a of objectsOf(list)) {
    const text = attributeText(a['value']);
    if (typeof a['key'] === 'string' && text !== undefined) into.set(a['key'], text);
  }
  return into;
}
