/**
 * How wide a report may be. `COLUMNS`, when it holds a whole number, wins wherever the report
 * goes, as POSIX says of it ("the user's preferred width") and as GNU ls and Python's
 * shutil.get_terminal_size read it: `COLUMNS=100 idem-sim run ...` narrows a table on a terminal
 * or in a file. Without it, a terminal's own width; a pipe or a file then gets the whole table,
 * since whatever reads it (less -S, an editor, a CI log) scrolls instead of wrapping.
 * `COLUMNS=0` asks for no limit even on a terminal.
 */

/** The widest line a report may draw, in terminal columns; undefined when there is no limit. */
export function reportWidth(stream: { isTTY?: boolean; columns?: number }, env: NodeJS.ProcessEnv): number | undefined {
  const text = env['COLUMNS']?.trim();
  if (text && /^\d+$/.test(text)) {
    const columns = Number(text);
    return columns > 0 ? columns : undefined;
  }
  const columns = stream.isTTY === true ? stream.columns : undefined;
  return columns !== undefined && columns > 0 ? columns : undefined;
}
