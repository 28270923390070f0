/**
 * Every example output in the README and docs/ is the program's real output. A ```text block whose
 * commands start its lines (`$ npx idem-sim ...`), or that holds a replay line (`replay: idem-sim
 * ...`), is run: its commands in order, each page's blocks in one scratch folder holding a copy of
 * scenarios/ (a block may read a file an earlier one wrote), after the steps the page's text
 * describes in words (SETUP). Each line of the block must be a line of what its commands print
 * (stdout and stderr), padding aside. A table's row may leave columns out (the text says so where
 * it does): its cells must then be cells of one real row, in order. A line of "..." stands for
 * lines left out, a line in parentheses for the text's own aside, and a line ending in "..." is
 * the start of a longer one.
 *
 * When the numbers are meant to change (a new version, a stream change), remake the blocks this
 * names from the commands they show.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, ROOT } from './helpers.js';

const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];

/** What a page's text does in words before its blocks: files copied from the repository, or written from a ```yaml block that follows `after`. */
const SETUP: Record<string, { copy?: [string, string]; yamlAfter?: [string, string] }[]> = {
  'docs/latency-from-metrics.md': [{ copy: ['scenarios/belgavi-refunds.yaml', 'scenario.yaml'] }],
  'docs/reconcile.md': [{ yamlAfter: ['a gate of four expectations, `refunds-gate.yaml`:', 'refunds-gate.yaml'] }],
};

/** Blocks not run, by page and a text of their first command, with why. */
const SKIP: { page: string; command: string; why: string }[] = [
  { page: 'docs/latency-from-metrics.md', command: 'fit scenarios/metrics/checkout.prom --client-timeouts', why: 'shows an earlier build\'s output beside this one\'s' },
  { page: 'docs/scenarios.md', command: 'explain pay.yaml', why: 'its files, pay.yaml and base.yaml, are described, not shown' },
  { page: 'docs/stores.md', command: 'probe --store', why: 'talks to a Redis' },
];

/** A command line split as a shell splits it: words, with '...' and "..." quoting; a # comment dropped. */
function words(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(/'([^']*)'|"([^"]*)"|(#.*)|(\S+)/g)) {
    if (m[3] !== undefined) break;
    out.push(m[1] ?? m[2] ?? m[4] ?? '');
  }
  return out;
}

interface Example { page: string; line: number; commands: string[][]; lines: string[] }

function examples(page: string): Example[] {
  const text = readFileSync(join(ROOT, page), 'utf8');
  const found: Example[] = [];
  for (const m of text.matchAll(/```text\n([\s\S]*?)```/g)) {
    const lines = (m[1] ?? '').split('\n');
    const dollars = lines.filter((l) => l.startsWith('$ '));
    const ours = dollars.map((l) => /^\$ (?:npx )?idem-sim (.+)$/.exec(l)?.[1]);
    const replay = lines.map((l) => /^replay: idem-sim (.+)$/.exec(l)?.[1]).find((r) => r !== undefined);
    let commands: string[];
    if (dollars.length > 0 && ours.every((c) => c !== undefined)) commands = ours as string[];
    else if (dollars.length === 0 && replay !== undefined) commands = [replay];
    else continue;
    const line = text.slice(0, m.index).split('\n').length + 1;
    found.push({ page, line, commands: commands.map(words), lines: lines.filter((l) => !l.startsWith('$ ')) });
  }
  return found;
}

const squash = (line: string): string => line.replace(/^idem-sim: /, '').replace(/\s+/g, ' ').trim();
const cells = (row: string): string[] => row.split('│').slice(1, -1).map((c) => c.trim());
/** Whether `part` is `whole` with cells left out, in order. */
const within = (part: string[], whole: string[]): boolean => {
  let k = 0;
  for (const c of whole) if (k < part.length && c === part[k]) k++;
  return k === part.length;
};
const unchecked = (line: string): boolean => line.trim() === '' || /^[─┌┐└┘├┤┬┴┼\s]+$/.test(line) || /^\s*(\.\.\.|…)\s*$/.test(line) || /^\(.*\)$/.test(line.trim());

const scratch = mkdtempSync(join(tmpdir(), 'idem-docs-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the example outputs of the README and docs/', () => {
  const all = PAGES.flatMap(examples);

  it('are found (blocks that start with their commands or hold a replay line)', () => {
    expect(all.length).toBeGreaterThan(25);
  });

  it('leave out only the blocks SKIP names, each still on its page (an entry that names none is stale)', () => {
    for (const s of SKIP) expect(all.filter((e) => e.page === s.page && e.commands[0]?.join(' ').startsWith(s.command)), `${s.page}: ${s.command}`).toHaveLength(1);
  });

  for (const page of PAGES) {
    const left = (e: Example) => SKIP.some((s) => s.page === page && e.commands[0]?.join(' ').startsWith(s.command)); // not run: SKIP says why
    const blocks = all.filter((e) => e.page === page && !left(e));
    if (blocks.length === 0) continue;
    describe(page, () => {
      const dir = join(scratch, page.replace(/\W/g, '_'));
      cpSync(join(ROOT, 'scenarios'), join(dir, 'scenarios'), { recursive: true });
      const text = readFileSync(join(ROOT, page), 'utf8');
      for (const step of SETUP[page] ?? []) {
        if (step.copy) cpSync(join(ROOT, step.copy[0]), join(dir, step.copy[1]));
        if (step.yamlAfter) writeFileSync(join(dir, step.yamlAfter[1]), /```yaml\n([\s\S]*?)```/.exec(text.slice(text.indexOf(step.yamlAfter[0])))?.[1] ?? '');
      }
      for (const e of blocks) {
        const name = `line ${e.line}: idem-sim ${e.commands.map((c) => c.join(' ')).join('; idem-sim ')}`;
        it(name, () => {
          const out = e.commands.flatMap((args) => {
            const r = cli(args, { cwd: dir });
            return `${r.stdout}\n${r.stderr}`.split('\n');
          });
          const real = new Set(out.map(squash));
          const rows = out.filter((l) => l.includes('│')).map(cells);
          // A line cut short with "..." (a long warning) is the start of a real one.
          const cut = (l: string): boolean => /\.\.\.$/.test(l.trim()) && [...real].some((r) => r.startsWith(squash(l).slice(0, -3).trimEnd()));
          const stale = e.lines.filter((l) => !unchecked(l) && !real.has(squash(l)) && !cut(l) && !(l.includes('│') && rows.some((row) => within(cells(l), row))));
          expect(stale, `${page}:${e.line}: these lines are not what the commands print now; remake the block from its commands`).toEqual([]);
        });
      }
    });
  }
});
