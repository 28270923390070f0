/**
 * A file's text a line at a time, as its bytes come: UTF-8 decoded across chunks, a CR before
 * the LF dropped, a byte order mark at the start dropped, and no line longer than
 * MAX_LINE_CHARS held (the one that would be is refused by its number, never shown).
 */
import { InputError } from '../scenario/errors.js';
import { MAX_LINE_CHARS } from './limits.js';

export interface Line {
  readonly text: string;
  /** 1-based. */
  readonly line: number;
}

/** The error of a line past the limit. */
export function lineTooLong(where: string, line: number, max = MAX_LINE_CHARS): InputError {
  return new InputError({ source: where, line }, '', `line ${line} is longer than ${max.toLocaleString('en-US')} characters, the most read (a field or a JSON line this long is no effect's)`,
    'Check that this is an export of effects, one row a line; a quoted field must be closed with ".');
}

export async function* lines(chunks: AsyncIterable<Uint8Array>, where: string, max = MAX_LINE_CHARS): AsyncGenerator<Line> {
  const decoder = new TextDecoder('utf-8');
  let pending = '';
  let line = 0;
  let first = true;
  for await (const chunk of chunks) {
    let text = pending + decoder.decode(chunk, { stream: true });
    if (first && text.length > 0) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      first = false;
    }
    let start = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
      const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      line++;
      if (end - start > max) throw lineTooLong(where, line, max);
      yield { text: text.slice(start, end), line };
      start = nl + 1;
    }
    pending = text.slice(start);
    if (pending.length > max) throw lineTooLong(where, line + 1, max);
  }
  pending += decoder.decode();
  if (first && pending.charCodeAt(0) === 0xfeff) pending = pending.slice(1);
  if (pending.length > max) throw lineTooLong(where, line + 1, max);
  if (pending !== '') yield { text: pending.endsWith('\r') ? pending.slice(0, -1) : pending, line: line + 1 };
}
