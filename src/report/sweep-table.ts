/**
 * A sweep's table drawn with cli-table3, in blocks of rows. cli-table3 lays a table out in time
 * quadratic in its cells (layout-manager's fillInTable checks each cell against every cell
 * above it): 4,000 rows of 8 columns took 8.5 s, and 20,000 would take minutes. Blocks of a few
 * thousand cells, drawn at the widths of the whole table and joined where their borders meet,
 * give the same text byte for byte.
 */
import Table from 'cli-table3';

/** Cells per block: about 2 ms of layout each. */
const BLOCK_CELLS = 2_000;

type Align = 'left' | 'right';

/** cli-table3's colour codes (utils.codeRegex), and the characters string-width counts as one column each. */
const COLOUR = /\u001b\[(?:\d*;){0,5}\d*m/g;
const SIMPLE = /^[\u0020-\u007e\u00a1-\u00ac\u00ae-\u00ff\u2013]*$/;

function draw(head: readonly string[], rows: readonly string[][], colAligns: readonly Align[], colWidths?: readonly number[]): string {
  const table = new Table({
    head: [...head],
    style: { head: [], border: [] },
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
    colAligns: [...colAligns],
    ...(colWidths ? { colWidths: [...colWidths] } : {}),
  });
  for (const row of rows) table.push(row);
  return table.toString();
}

/** The table of `head` and `rows`, with no line between rows (the sweep tables' style). */
export function drawRows(head: readonly string[], rows: readonly string[][], colAligns: readonly Align[]): string {
  const perBlock = Math.max(1, Math.floor(BLOCK_CELLS / Math.max(1, head.length)));
  if (rows.length <= perBlock) return draw(head, rows, colAligns);
  const blocks: string[][][] = [];
  for (let i = 0; i < rows.length; i += perBlock) blocks.push(rows.slice(i, i + perBlock));
  // Each column's width in the whole table. A cell of plain characters (ASCII, Latin-1, the en
  // dash) is as wide as it is long once its colour codes are gone; the others (wide or combining
  // characters, lines) are measured by cli-table3 itself: the runs of ─ in a table's top border.
  const widths = head.map(() => 0);
  const odd: string[][] = [];
  for (const row of [head, ...rows]) {
    let oddRow: string[] | undefined;
    row.forEach((text, k) => {
      const plain = text.replace(COLOUR, '');
      if (SIMPLE.test(plain)) widths[k] = Math.max(widths[k] as number, plain.length + 2);
      else (oddRow ??= row.map(() => ''))[k] = text;
    });
    if (oddRow) odd.push(oddRow);
  }
  for (let i = 0; i < odd.length; i += perBlock) {
    const top = draw([], odd.slice(i, i + perBlock), colAligns).split('\n', 1)[0] as string;
    top.slice(1, -1).split('┬').forEach((run, k) => { widths[k] = Math.max(widths[k] as number, run.length); });
  }
  const lines: string[] = [];
  blocks.forEach((block, i) => {
    const part = draw(i === 0 ? head : [], block, colAligns, widths).split('\n');
    lines.push(...part.slice(i === 0 ? 0 : 1, i === blocks.length - 1 ? part.length : -1));
  });
  return lines.join('\n');
}
