/**
 * The rooms of src/ (docs/architecture.md) depend on each other one way only: no import, type
 * imports included, closes a cycle between two folders. A failure names the cycle and one import
 * on each of its steps.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', 'src');
const IMPORT = /(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory() ? sources(path) : e.name.endsWith('.ts') ? [path] : [];
  });
}

/** The room of a file under src/: its first folder. */
const roomOf = (file: string) => relative(SRC, file).split('/')[0] as string;

/** room -> room it imports -> one import that does it ("file -> target"). */
function roomGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of sources(SRC)) {
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = normalize(join(dirname(file), (m[1] ?? m[2]) as string));
      if (!target.startsWith(SRC)) continue;
      const [from, to] = [roomOf(file), roomOf(target)];
      if (from === to || to.includes('.')) continue;
      const edges = graph.get(from) ?? new Map<string, string>();
      if (!edges.has(to)) edges.set(to, `${relative(SRC, file)} -> ${relative(SRC, target)}`);
      graph.set(from, edges);
    }
  }
  return graph;
}

/** A cycle of rooms, as the rooms in order with the first again at the end, or null. */
export function findCycle(graph: ReadonlyMap<string, ReadonlyMap<string, string>>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (room: string): string[] | null => {
    state.set(room, 'open');
    path.push(room);
    for (const next of graph.get(room)?.keys() ?? []) {
      if (state.get(next) === 'open') return [...path.slice(path.indexOf(next)), next];
      if (state.get(next) === undefined) {
        const found = visit(next);
        if (found) return found;
      }
    }
    path.pop();
    state.set(room, 'done');
    return null;
  };
  for (const room of graph.keys()) {
    if (state.get(room) !== undefined) continue;
    const found = visit(room);
    if (found) return found;
  }
  return null;
}

describe('rooms of src/', () => {
  it('import each other one way only: no cycle between folders', () => {
    const graph = roomGraph();
    const cycle = findCycle(graph);
    const steps = cycle?.slice(1).map((to, i) => graph.get(cycle[i] as string)?.get(to));
    expect(cycle === null ? null : `${cycle.join(' -> ')}: ${steps?.join('; ')}`).toBeNull();
  });

  it('the check finds a cycle where there is one (it is not vacuous)', () => {
    const graph = new Map([['a', new Map([['b', 'a.ts -> b.ts']])], ['b', new Map([['c', '']])], ['c', new Map([['a', '']])]]);
    expect(findCycle(graph)).toEqual(['a', 'b', 'c', 'a']);
    expect(findCycle(roomGraph())).toBeNull();
  });

  it('the pure rooms touch no fs, process or console', () => {
    const pure = ['model', 'engine', 'results', 'random', 'report', 'sweeps', 'ingest', 'agent', 'inventory'];
    // Comments stripped first: "a Poisson process." is no use of process.
    const impure = sources(SRC).filter((f) => pure.includes(roomOf(f)))
      .filter((f) => /from ['"]node:(fs|child_process|worker_threads)['"]|\bprocess\.\w|\bconsole\./.test(readFileSync(f, 'utf8').replace(/\/\*[^]*?\*\/|\/\/.*$/gm, '')));
    expect(impure.map((f) => relative(SRC, f))).toEqual([]);
  });

  it('chalk is used only as Chalk given its level, never its own instances (the bundle leaves out the terminal probe that sets theirs)', () => {
    // scripts/build-cli.mjs REPLACED: chalk's `#supports-color` is "no colour" in the bundle, so
    // its default `chalk`, `chalkStderr` and `supportsColor` would differ from dist/'s.
    const allowed = /^import (?:type )?\{\s*(?:Chalk,\s*)?(?:type )?ChalkInstance\s*\}|^import \{\s*Chalk\s*\}/;
    const uses = sources(SRC).flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/^import[^;]*?from ['"]chalk(?:\/[^'"]*)?['"]/gm)]
      .filter((m) => !allowed.test(m[0])).map((m) => `${relative(SRC, f)}: ${m[0]}`));
    expect(uses).toEqual([]);
    expect(allowed.test("import chalk from 'chalk'")).toBe(false);
    expect(allowed.test("import { Chalk, chalkStderr } from 'chalk'")).toBe(false);
  });
});
