/**
 * Commander's errors (an unknown option or command, a missing value) as the CLI's other errors
 * read: one paragraph on one line. Commander puts its "Did you mean" on a line of its own, in
 * parentheses, and does not say which subcommand refused the option.
 */
import { clipped, printable } from '../scenario/printable.js';

/** Messages that name something of the subcommand, so the subcommand is named after them. */
const OF_THE_COMMAND = /^(unknown option|missing required argument) /;

/**
 * Commander's `message` (`error: unknown option '--action'\n(Did you mean --actions?)\n`) as
 * `idem-sim: error: unknown option '--action' for run. Did you mean --actions? Run idem-sim run
 * --help for usage.`; `command` is the subcommand that refused it, if not the program itself.
 */
export function usageError(message: string, command?: string): string {
  const text = message.replace(/^error: /, '').trimEnd();
  const hint = /\n\(Did you mean (.*)\?\)$/s.exec(text);
  let body = (hint ? text.slice(0, hint.index) : text).trimEnd().replace(/\.+$/, '');
  if (command && OF_THE_COMMAND.test(body)) body += ` for ${command}`;
  // Commander quotes the argument it refuses: it may hold control codes.
  const suggestion = hint ? ` Did you mean ${printable(hint[1] as string)}?` : '';
  return `idem-sim: error: ${printable(clipped(body, 300))}.${suggestion} Run idem-sim ${command ? `${command} ` : ''}--help for usage.\n`;
}
