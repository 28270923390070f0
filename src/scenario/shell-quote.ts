/** An argument as a replay line writes it for a POSIX shell. */
import { hasUnprintable } from './printable.js';

/**
 * Quotes an argument for a POSIX shell only when it needs it. One holding a control character
 * (a hostile file name) is written in bash's $'...' form with \xHH escapes, so that the replay
 * line neither carries raw control codes to the terminal nor changes the argument.
 */
export function shellQuote(arg: string): string {
  if (/^[\w@%+=:,./-]+$/.test(arg)) return arg;
  if (hasUnprintable(arg)) {
    const bytes = [...new TextEncoder().encode(arg)]; // TextEncoder, not Buffer: the lab's page quotes with it too
    return `$'${bytes.map((b) => (b < 0x20 || b >= 0x7f || b === 0x27 || b === 0x5c ? `\\x${b.toString(16).padStart(2, '0')}` : String.fromCharCode(b))).join('')}'`;
  }
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}
