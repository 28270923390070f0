/**
 * Effects from CSV (RFC 4180): a header row naming the columns, then one record a row, fields
 * quoted with " where they hold commas, quotes or line breaks (a quote inside doubled). An
 * empty field is none (null). Blank lines are skipped. A malformed record is refused at its
 * line and column, never shown: business keys can be personal data.
 */
import { InputError } from '../scenario/errors.js';
import { clipped, printable } from '../scenario/printable.js';
import { lineTooLong, type Line } from './lines.js';
import { MAX_LINE_CHARS } from './limits.js';
import type { RawRows, RawValue } from './raw.js';
import type { RowLines } from './places.js';

/** One record as it is read, a line at a time (a quoted field may hold line breaks). */
class Record {
  readonly fields: string[] = [];
  private field = '';
  private quoted = false;
  private afterQuote = false;
  private length = 0;

  /** Reads a line into the record: true when the record ends with it; else the problem, by the field (0-based) it is in. */
  feed(text: string): { ends: boolean } | { problem: 'quote' | 'after' | 'long'; field: number } {
    this.length += text.length + 1;
    if (this.length > MAX_LINE_CHARS) return { problem: 'long', field: this.fields.length };
    if (this.fields.length === 0 && !this.quoted && !text.includes('"')) {
      this.fields.push(...text.split(','));
      return { ends: true };
    }
    if (this.quoted) this.field += '\n';
    for (let i = 0; i < text.length; i++) {
      const c = text[i] as string;
      if (this.quoted) {
        if (c !== '"') this.field += c;
        else if (text[i + 1] === '"') { this.field += '"'; i++; } else { this.quoted = false; this.afterQuote = true; }
      } else if (c === ',') {
        this.fields.push(this.field);
        this.field = '';
        this.afterQuote = false;
      } else if (this.afterQuote) return { problem: 'after', field: this.fields.length };
      else if (c === '"') {
        if (this.field !== '') return { problem: 'quote', field: this.fields.length };
        this.quoted = true;
      } else this.field += c;
    }
    if (this.quoted) return { ends: false };
    this.fields.push(this.field);
    this.field = '';
    return { ends: true };
  }
}

const PROBLEMS = {
  quote: ['has a quote inside a field that does not begin with one', 'Quote a field that holds a quote, and double the quote inside it ("a ""b"" c"), as RFC 4180 asks.'],
  after: ['has text after the quote that closes a field', 'End a quoted field with its closing quote, then a comma or the end of the line; double a quote inside it.'],
} as const;

/** A column's name as a message shows it: the header is the user's own file's, clipped and printable. */
export const columnName = (name: string): string => printable(clipped(name, 80));

/** The rows of a CSV text given a line at a time. */
export function csvRows(input: AsyncIterable<Line>, where: string): RawRows & RowLines {
  const it = input[Symbol.asyncIterator]();
  let header: string[] | undefined;
  let last = 0;
  const record = async (): Promise<string[] | undefined> => {
    for (;;) {
      const first = await it.next();
      if (first.done) return undefined;
      if (first.value.text === '') continue; // a blank line
      last = first.value.line;
      const r = new Record();
      for (let got = r.feed(first.value.text); ;) {
        if ('problem' in got) {
          if (got.problem === 'long') throw lineTooLong(where, last);
          const column = header?.[got.field];
          const [problem, fix] = PROBLEMS[got.problem];
          throw new InputError({ source: where, line: last }, '', `line ${last}${column === undefined ? `, field ${got.field + 1}` : `, column ${columnName(column)}`}, ${problem}`, fix);
        }
        if (got.ends) return r.fields;
        const more = await it.next();
        if (more.done) throw new InputError({ source: where, line: last }, '', `line ${last} opens a quoted field that the file never closes`, 'Close each quoted field with "; double a quote inside one.');
        got = r.feed(more.value.text);
      }
    }
  };
  const columns = async (): Promise<string[]> => {
    if (header) return header;
    const got = await record();
    if (!got) throw new InputError({ source: where }, '', 'is empty: no header row', 'Give a CSV export with a header row naming its columns, such as business_key,at,idempotency_key,tool.');
    // A carriage return in the header is a file whose lines end with CR alone: all of it would read
    // as one header row, and its columns named would be rows' contents.
    if (got.some((name) => name.includes('\r'))) {
      throw new InputError({ source: where, line: 1 }, '', 'ends its lines with a carriage return alone (CR), so it reads as one line', 'Convert its line ends to LF or CRLF (tr \'\\r\' \'\\n\'), as every CSV export writes them.');
    }
    header = got.map((name) => name.trim());
    return header;
  };
  return {
    where,
    columns,
    lineOfLast: () => last,
    async *rows(): AsyncGenerator<readonly RawValue[]> {
      const names = await columns();
      for (let fields = await record(); fields; fields = await record()) {
        if (fields.length !== names.length) {
          throw new InputError({ source: where, line: last }, '', `line ${last} has ${fields.length} field${fields.length === 1 ? '' : 's'} where the header row names ${names.length} columns`,
            'Give every row one field for each column of the header row; quote a field that holds a comma.');
        }
        yield fields.map((f) => (f === '' ? null : f));
      }
    },
    close: async () => { await it.return?.(); },
  };
}
