/**
 * Observed durations, one by one: a list (one number a line, `#` comments and blank lines
 * skipped), or a column of a CSV file (RFC 4180: a header row, fields quoted with " where they
 * hold commas, quotes or line breaks). Numbers in `unitMs` ms each, decimal only; an error names
 * the line, never its text.
 */
import { MAX_DURATION_MS } from '../model/limits.js';
import { MAX_OBSERVATIONS } from './limits.js';
import { namesText, refuse, type Source } from './source.js';

const DECIMAL = /^[+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/;

/** Collects durations in ms, refusing one that is not a duration and the one past MAX_OBSERVATIONS. */
class Durations {
  private readonly values: number[] = [];
  constructor(private readonly src: Source, private readonly unitMs: number, private readonly what: string) {}
  add(text: string, line: number): void {
    const v = DECIMAL.test(text) ? Number(text) * this.unitMs : NaN;
    if (!(v >= 0 && v <= MAX_DURATION_MS)) {
      refuse(this.src, line, `line ${line} (${text.length} characters) holds no duration`, `Write ${this.what}: one number >= 0 a line in the unit given (--unit; ms unless given), nothing else.`);
    }
    if (this.values.length === MAX_OBSERVATIONS) {
      refuse(this.src, line, `holds more than ${MAX_OBSERVATIONS.toLocaleString('en-US')} durations, the most read`, 'Sample them down to at most a million: the quantiles need far fewer.');
    }
    this.values.push(v);
  }
  sorted(): Float64Array {
    if (this.values.length === 0) refuse(this.src, undefined, 'holds no durations', `Give ${this.what}.`);
    return Float64Array.from(this.values).sort();
  }
}

/** One duration a line. */
export function durationList(text: string, src: Source, unitMs: number): Float64Array {
  const out = new Durations(src, unitMs, 'a list of durations');
  text.split('\n').forEach((raw, i) => {
    const t = raw.replace(/#.*/, '').trim();
    if (t !== '') out.add(t, i + 1);
  });
  return out.sorted();
}

/** The records of a CSV text, each with the line it starts on. */
function* records(text: string): Generator<{ fields: string[]; line: number }> {
  let fields: string[] = [], field = '', quoted = false, line = 1, start = 1, i = 0;
  for (; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; } else if (c === '"') quoted = false; else { field += c; if (c === '\n') line++; }
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') { fields.push(field); field = ''; }
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      fields.push(field);
      yield { fields, line: start };
      fields = []; field = ''; start = ++line;
    } else field += c;
  }
  if (field !== '' || fields.length > 0) { fields.push(field); yield { fields, line: start }; }
}

/** The durations of one column of a CSV file, named in its header row; empty cells are skipped and counted. */
export function csvColumn(text: string, src: Source, column: string, unitMs: number): { sorted: Float64Array; skipped: number } {
  const out = new Durations(src, unitMs, `a CSV file whose column ${column} holds durations`);
  let index = -1, skipped = 0;
  for (const { fields, line } of records(text.replace(/^\uFEFF/, ''))) {
    if (index < 0) {
      index = fields.map((f) => f.trim()).indexOf(column);
      if (index < 0) refuse(src, line, `has no column ${column} in its header row (it has ${namesText(src, fields.map((f) => f.trim()), 'column')})`, 'Name a column of the header row with --column.');
      continue;
    }
    if (fields.length === 1 && fields[0] === '') continue; // a blank line
    const cell = (fields[index] ?? '').trim();
    if (cell === '') skipped++;
    else out.add(cell, line);
  }
  if (index < 0) refuse(src, undefined, 'is empty: no header row', 'Give a CSV file with a header row naming its columns.');
  return { sorted: out.sorted(), skipped };
}
