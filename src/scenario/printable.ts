/**
 * Text from a hostile input made safe to print: control characters (C0, DEL, C1), line and
 * paragraph separators and bidirectional overrides are written as `\u001b` and the like, so a
 * file or key name cannot move the cursor, set a terminal's title or clipboard (OSC 52), fake
 * a line of output, or reorder what a reviewer reads.
 */
// eslint-disable-next-line no-control-regex
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

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
 * A seed as text: 1 to 200 characters, no control character anywhere (it reaches tables and CI
 * logs as it is), and not beginning with =, + or @ or a space (a CSV cell a spreadsheet would
 * take for a formula). A pattern rather than maxLength, so the compiled validator needs no helper.
 */
export const SEED_PATTERN = '^[^\\u0000-\\u0020\\u007f-\\u009f=+@][^\\u0000-\\u001f\\u007f-\\u009f]{0,199}$';
export const SEED_FORM = 'at most 200 characters, no control characters, not beginning with a space, =, + or @';
export const SEED_TEXT = new RegExp(SEED_PATTERN, 'u');

/** Text with no control character (C0, DEL, C1): a part's names and warnings as idem-sim writes them. */
export const PRINTABLE_TEXT = /^[^\u0000-\u001f\u007f-\u009f]*$/u;
