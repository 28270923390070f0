/**
 * The README is a front door into docs/: every relative link in README.md and docs/*.md must
 * lead to a file that exists, and a link's #anchor to a heading of that file (GitHub's slugs);
 * so must every docs/FILE.md#anchor the program names to its users.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

const DOCS = [join(ROOT, 'README.md'), ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join(ROOT, 'docs', f))];

/** Every TypeScript file below `dir`. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? sourceFiles(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : []));
}

/** The text outside fenced code blocks. */
function unfenced(markdown: string): string {
  return markdown.replace(/^( *)(```|~~~)[\s\S]*?^\1\2[^\n]*$/gm, '');
}

/** The text outside fenced code blocks and inline code, where a link is a link. */
export function prose(markdown: string): string {
  return unfenced(markdown).replace(/`[^`\n]*`/g, '');
}

/** The targets of `[text](target)` and `![alt](target)` links, without a "title". */
export function linkTargets(markdown: string): string[] {
  return [...prose(markdown).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1] as string);
}

/** GitHub's anchors for a file's headings: lower case, punctuation dropped, spaces to '-', repeats numbered. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of unfenced(markdown).replace(/`([^`\n]*)`/g, '$1').matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = (m[1] as string).toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Every broken relative link of `file`, as "file: target (why)". */
function brokenLinks(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const broken: string[] = [];
  for (const target of linkTargets(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: and the like
    const [path = '', anchor] = target.split('#');
    const where = path === '' ? file : join(dirname(file), decodeURIComponent(path));
    const name = `${relative(ROOT, file)}: ${target}`;
    if (!existsSync(where)) { broken.push(`${name} (no such file)`); continue; }
    if (anchor === undefined) continue;
    if (!statSync(where).isFile() || !where.endsWith('.md')) { broken.push(`${name} (an anchor into a file that is not markdown)`); continue; }
    if (!anchors(readFileSync(where, 'utf8')).has(anchor)) broken.push(`${name} (no heading with that anchor)`);
  }
  return broken;
}

describe('links in README.md and docs/', () => {
  it('reads the links and anchors as GitHub does', () => {
    expect(linkTargets('[a](x.md) `[b](y.md)` ![c](p.png "title")\n```sh\n[d](z.md)\n```\n')).toEqual(['x.md', 'p.png']);
    expect([...anchors('# Time (version 2)\n## The action timeline (`idem-sim report`)\n## Tables\n## Tables\n```sh\n# bash\n```\n')])
      .toEqual(['time-version-2', 'the-action-timeline-idem-sim-report', 'tables', 'tables-1']);
  });

  it('every relative link leads to an existing file, and every #anchor to one of its headings', () => {
    expect(DOCS.length).toBeGreaterThan(10);
    expect(DOCS.flatMap(brokenLinks)).toEqual([]);
  });

  it('every docs/FILE.md#anchor that src/ names (in an error\'s fix, a help text) leads to a heading', () => {
    const named = sourceFiles(join(ROOT, 'src')).flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/\bdocs\/([\w.-]+\.md)#([\w-]+)/g)]
      .map((m) => ({ where: relative(ROOT, f), file: m[1] as string, anchor: m[2] as string })));
    expect(named.map((n) => `${n.file}#${n.anchor}`)).toContain('model.md#what-idem-sim-does-not-model');
    const broken = named.filter((n) => !existsSync(join(ROOT, 'docs', n.file)) || !anchors(readFileSync(join(ROOT, 'docs', n.file), 'utf8')).has(n.anchor));
    expect(broken.map((n) => `${n.where}: docs/${n.file}#${n.anchor}`)).toEqual([]);
  });

  it('the README is a front door: at most 350 lines, its detail in docs/ and every limit in the page it links', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const lines = readme.split('\n').length - 1;
    expect(lines, `README.md has ${lines} lines: move the detail into a page of docs/ and link it`).toBeLessThanOrEqual(350);
    expect(linkTargets(readme)).toContain('docs/security-and-limits.md');
  });

  it('the README links every document in docs/', () => {
    const readme = linkTargets(readFileSync(join(ROOT, 'README.md'), 'utf8')).map((t) => t.split('#')[0]);
    const docs = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
    expect(docs.filter((d) => !readme.includes(d))).toEqual([]);
  });
});
