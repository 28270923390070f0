/**
 * docs/command-line.md is rendered by `npm run generate` from the commander program, read as
 * shell completion reads it (completion/spec.ts), the examples of each subcommand's --help
 * and the hand-written prose of src/report/command-line-doc.md, as docs/scenario-keys.md is from
 * the scenario's shape: the page and the command line cannot drift apart.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { completionSpec } from '../src/completion/spec.js';
import { EXAMPLES } from '../src/report/examples.js';
import { program } from '../src/cli/main.js';
import { commandLineDoc, MARKERS } from '../src/report/command-line-doc.js';
import { ROOT } from './helpers.js';

const DOC = readFileSync(join(ROOT, 'docs/command-line.md'), 'utf8');
const TEMPLATE = readFileSync(join(ROOT, 'src/report/command-line-doc.md'), 'utf8');
const cli = program({ io: { stdout: new PassThrough(), stderr: new PassThrough(), env: {} }, signal: new AbortController().signal, setCode: () => {} });
const SPEC = await completionSpec(cli);
const RENDERED = commandLineDoc(SPEC, EXAMPLES, TEMPLATE);

/** The first line where `found` and `wanted` part, or null when they are the same. */
function firstDifference(found: string, wanted: string): string | null {
  if (found === wanted) return null;
  const a = found.split('\n'), b = wanted.split('\n');
  const i = b.findIndex((line, j) => a[j] !== line);
  const at = i === -1 ? b.length : i;
  return `docs/command-line.md differs from what src/report/command-line-doc.ts renders at line ${at + 1}:\n`
    + `  file:     ${JSON.stringify(a[at] ?? '(end of file)')}\n  rendered: ${JSON.stringify(b[at] ?? '(end of file)')}\n`
    + 'Run `npm run generate` to rewrite it (edit the prose in src/report/command-line-doc.md, not the page).';
}

describe('docs/command-line.md', () => {
  it('is what src/report/command-line-doc.ts renders from the program and its template (npm run generate)', () => {
    const difference = firstDifference(DOC, RENDERED);
    expect(difference, difference ?? undefined).toBeNull();
  });

  it('says it is generated, by what, and where its prose is written', () => {
    expect(RENDERED).toContain('`npm run generate`');
    expect(RENDERED).toContain('do not edit this\n> file by hand');
    expect(RENDERED).toContain('`src/report/command-line-doc.md`');
    for (const marker of Object.values(MARKERS)) expect(RENDERED).not.toContain(marker);
  });

  it('has a section for every subcommand, with each of its options and examples, and an index linking them', () => {
    expect(cli.commands.length).toBeGreaterThan(10);
    for (const cmd of cli.commands) {
      const name = cmd.name();
      const start = RENDERED.indexOf(`\n### ${name}\n`);
      expect(start, name).toBeGreaterThan(0);
      const section = RENDERED.slice(start, RENDERED.indexOf('\n### ', start + 1));
      expect(RENDERED, name).toContain(`| [\`${name}\`](#${name}) |`);
      for (const option of cmd.options) if (!option.hidden) expect(section, `${name} ${option.flags}`).toContain(`| \`${option.flags}\` |`);
      for (const example of EXAMPLES[name] ?? []) expect(section, example.line).toContain(example.line.replaceAll('{scenarios}', 'scenarios'));
    }
  });

  it('keeps what the definitions cannot say: exit statuses, tables in a terminal, shell completion', () => {
    for (const heading of ['## Exit status and outputs', '## Tables in a terminal', '## Shell completion', '## Every command']) expect(RENDERED).toContain(`\n${heading}\n`);
    expect(RENDERED).toContain('130, 143 or 129 stopped by SIGINT');
  });

  it('lists each option several commands take, with the commands that take it', () => {
    const row = /^\| `--actions <n>` \| ([^|]+) \|$/m.exec(RENDERED)?.[1]?.split(', ') ?? [];
    const takers = cli.commands.filter((c) => c.options.some((o) => o.long === '--actions')).map((c) => c.name());
    expect(row).toEqual(takers);
    expect(row).toContain('run');
  });

  it('escapes a cell\'s pipes and tags, and refuses a template without its markers', () => {
    const line = { program: 'p', usage: 'p [options]', description: 'd', options: [], commands: [{ name: 'c', usage: 'p c', description: 'a | b <file>', arguments: [], options: [] }] };
    const page = commandLineDoc(line, {}, `# T\n\n${MARKERS.index}\n\n${MARKERS.shared}\n\n${MARKERS.commands}\n`);
    expect(page).toContain('| [`c`](#c) | a \\| b &lt;file> |');
    expect(() => commandLineDoc(line, {}, '# T\n')).toThrow(MARKERS.index);
  });
});
