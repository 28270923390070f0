/** Syntax checks of a scenario's text that the YAML parser leaves vague: where an unclosed bracket opened, strict JSON for .json files. */
import type { Document, LineCounter } from 'yaml';
import { tooDeep, type TextSource } from './document.js';
import { InputError } from './errors.js';

/**
 * The last `{` or `[` before `end` that no bracket closes (outside quotes and comments), as an
 * offset into `text`: where a flow collection the parser found unterminated was opened.
 */
export function unclosedBracket(text: string, end: number): number | undefined {
  const open: number[] = [];
  let quote = '';
  for (let i = 0; i < end && i < text.length; i++) {
    const c = text[i] as string;
    const tokenStart = i === 0 || /[\s[{,:]/.test(text[i - 1] as string);
    if (quote === '"') {
      if (c === '\\') i++; // an escape: the next character is taken as it is
      else if (c === '"' || c === '\n') quote = ''; // a quoted scalar spanning lines is rare in a scenario
    } else if (quote === "'") {
      if (c === "'" && text[i + 1] === "'") i++; // '' is a quote inside single quotes
      else if (c === "'" || c === '\n') quote = '';
    } else if ((c === '"' || c === "'") && tokenStart) quote = c; // not the ' of don't
    else if (c === '#' && (i === 0 || /\s/.test(text[i - 1] as string))) while (i + 1 < end && text[i + 1] !== '\n') i++;
    else if (c === '{' || c === '[') open.push(i);
    else if (c === '}' || c === ']') open.pop();
  }
  return open.at(-1);
}

/**
 * A `.json` scenario must be JSON: YAML would also take a trailing comma or a comment, which
 * another JSON tool reading the same file would refuse.
 */
export function strictJson(text: string, source: string, lineCounter: LineCounter): void {
  const bom = text.startsWith('\uFEFF') ? 1 : 0;
  if (text.trim() === '') return; // an empty file (a BOM is white space to trim) is the lab, as in YAML
  try {
    JSON.parse(text.slice(bom));
  } catch (e) {
    const message = (e as Error).message;
    const at = /position (\d+)/.exec(message);
    const pos = at ? lineCounter.linePos(Number(at[1]) + bom) : undefined;
    throw new InputError({ source, ...(pos ? { line: pos.line, col: pos.col } : {}) }, '',
      `is not valid JSON: ${message.replace(/ in JSON at position \d+.*$/, '')}`,
      'Fix the JSON there (a trailing comma or a comment are the usual causes), or rename the file to .yaml to write YAML.');
  }
}

/** Throws the first error the YAML parser found in the text, placed and explained for a person. */
export function refuseSyntaxErrors(doc: Document, text: string, source: string, lineCounter: LineCounter): void {
  const from: TextSource = { source, lines: true };
  // An unterminated { or [ is reported where it opens, whichever of the parser's errors says so.
  const unterminated = doc.errors.find((e) => /end with an? [}\]]/.test(e.message));
  const open = unterminated ? unclosedBracket(text, unterminated.pos[0]) : undefined;
  if (unterminated && open !== undefined) {
    const at = lineCounter.linePos(open);
    const gaveUp = unterminated.linePos?.[0];
    throw new InputError({ source, line: at.line, col: at.col }, '',
      `is not valid YAML or JSON: the ${text[open]} opened here is never closed${gaveUp ? ` (the parser gave up at line ${gaveUp.line})` : ''}`,
      `Close it with ${text[open] === '{' ? '}' : ']'}, or write the collection as indented lines.`);
  }
  if (/\.json$/i.test(source)) strictJson(text, source, lineCounter);
  const yamlError = doc.errors[0];
  if (yamlError) {
    const pos = yamlError.linePos?.[0];
    const first = yamlError.message.split('\n')[0] ?? yamlError.message;
    // The parser recurses per level of block nesting (checkSize counts flow nesting only).
    if (/call stack/i.test(first)) throw tooDeep({ source, ...(pos ? { line: pos.line, col: pos.col } : {}) }, from);
    throw new InputError(
      { source, ...(pos ? { line: pos.line, col: pos.col } : {}) }, '',
      yamlError.code === 'MULTIPLE_DOCS'
        ? 'holds more than one YAML document (a line with --- starts a second one)'
        : `is not valid YAML or JSON: ${first.replace(/ at line \d+, column \d+:?$/, '')}`,
      yamlError.code === 'MULTIPLE_DOCS'
        ? 'Keep one scenario per file.'
        : 'Fix the syntax there (indentation, a missing colon or an unclosed bracket are the usual causes).',
    );
  }
}
