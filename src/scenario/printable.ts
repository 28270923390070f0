/**
 * Text from a hostile input made safe to print, by one rule for everything that reaches a
 * terminal, a log, a CSV cell or an HTML page: the characters of UNPRINTABLE_CLASS are written
 * as `\u001b` and the like, so a file or key name cannot move the cursor, set a terminal's title
 * or clipboard (OSC 52), fake a line of output, reorder what a reviewer reads, or hide what it
 * holds. Seeds and a part's names are refused when they hold one (SEED_PATTERN, PRINTABLE_TEXT).
 */

/**
 * The characters no report prints as they are, as the inside of a regular expression's class:
 * controls (C0, DEL, C1), and the invisible format characters (Unicode's Cf, Zl and Zp) that
 * change how the text around them is shown: the soft hyphen, the Arabic letter mark, the
 * Mongolian vowel separator, zero-width spaces and joiners, left-to-right and right-to-left
 * marks, line and paragraph separators, bidirectional embeddings, overrides and isolates,
 * invisible operators, the byte order mark and interlinear annotations. All within 16 bits and
 * written `\uXXXX`, so that the published schema's seed pattern reads alike in every regular
 * expression dialect (`\u{...}` needs JavaScript's `u` flag; Python's `re` refuses it).
 */
export const UNPRINTABLE_CLASS = '\\u0000-\\u001f\\u007f-\\u009f\\u00ad\\u061c\\u180e\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u2064\\u2066-\\u206f\\ufeff\\ufff9-\\ufffb';
const UNPRINTABLE = new RegExp(`[${UNPRINTABLE_CLASS}]`, 'g');

/** `text` with each unprintable character written as `\uXXXX`. */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Text from the input shortened for an error: a 100 KB `--set` value is not worth echoing whole
 * (it floods a CI log and may carry what its writer did not mean to show). Keeps the start and
 * the end, and says how long it was.
 */
export function clipped(text: string, max = 200): string {
  if (text.length <= max) return text;
  const keep = Math.floor((max - 40) / 4);
  // Never half of a character written as two UTF-16 units (an emoji): cut before or after it.
  let head = text.slice(0, keep * 3);
  let tail = text.slice(-keep);
  if (/[\uD800-\uDBFF]$/.test(head)) head = head.slice(0, -1);
  if (/^[\uDC00-\uDFFF]/.test(tail)) tail = tail.slice(1);
  return `${head}...${tail} (${text.length} characters)`;
}

/** Whether `text` holds a character `printable` would rewrite. */
export function hasUnprintable(text: string): boolean {
  UNPRINTABLE.lastIndex = 0;
  const found = UNPRINTABLE.test(text);
  UNPRINTABLE.lastIndex = 0;
  return found;
}

/**
 * A seed as text: 1 to 200 characters, none unprintable (it reaches tables and CI logs as it
 * is), and not beginning with =, + or @ or a space (a CSV cell a spreadsheet would take for a
 * formula). A pattern rather than maxLength, so the compiled validator needs no helper.
 */
export const SEED_PATTERN = `^[^${UNPRINTABLE_CLASS}\\u0020=+@][^${UNPRINTABLE_CLASS}]{0,199}$`;
export const SEED_FORM = 'at most 200 characters, no control or invisible format characters (such as a bidirectional override), not beginning with a space, =, + or @';
export const SEED_TEXT = new RegExp(SEED_PATTERN, 'u');

/** Text with no unprintable character: a part's names, warnings and version as idem-sim writes them. */
export const PRINTABLE_TEXT = new RegExp(`^[^${UNPRINTABLE_CLASS}]*$`, 'u');
