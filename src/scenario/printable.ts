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

/** Whether `text` holds a character `printable` would rewrite. */
export function hasUnprintable(text: string): boolean {
  UNPRINTABLE.lastIndex = 0;
  const found = UNPRINTABLE.test(text);
  UNPRINTABLE.lastIndex = 0;
  return found;
}
