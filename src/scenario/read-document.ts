/**
 * A scenario's (or an agent file's) text as plain data, with where each key path was written:
 * the first step of parse.ts, and of every file an `extends:` chain reads (extends.ts).
 */
import type { Document, LineCounter, Node } from 'yaml';
import { checkSize, checkTree, toPlain, yaml, type TextSource, type TokenBudget } from './document.js';
import type { Origin } from './errors.js';
import type { Override } from './parse.js';
import { refuseSyntaxErrors } from './syntax.js';

type Path = readonly (string | number)[];

/** Where a key path was written: `keyNode`, the key itself rather than its value. */
export type Locate = (path: Path, keyNode?: boolean) => Origin;

/**
 * YAML or JSON text to plain data (refusing what document.ts refuses) with where each key path
 * was written. `budget`: what the file's chain of `extends:` may still hold (extends.ts).
 */
export function readDocument(text: string, source: string, overrides: readonly Override[] = [], budget?: TokenBudget): { document: unknown; locate: Locate } {
  const { LineCounter, parseDocument } = yaml();
  const from: TextSource = { source, lines: true };
  checkSize(text, from, budget);
  const lineCounter = new LineCounter();
  // Keys given twice are found by checkTree: yaml's own check compares each key with every other.
  const doc = parseDocument(text, { lineCounter, uniqueKeys: false, prettyErrors: true });
  const locate = locator(doc, lineCounter, source, overrides);

  refuseSyntaxErrors(doc, text, source, lineCounter);
  const aliasAt = checkTree(doc, text, from);
  return { document: toPlain(doc, text, from, aliasAt) ?? {}, locate };
}

/** The override to blame for a key path: the last that set this key, a key inside it, or the mapping holding it. */
export function overrideFor(path: Path, overrides: readonly Override[]): Override | undefined {
  const related = (o: Override) => path.length > 0 && o.path.every((k, i) => i >= path.length || String(path[i]) === String(k));
  return [...overrides].reverse().find(related);
}

/** Maps a key path to where the user wrote it: an override, or a line and column in the file. */
function locator(doc: Document, lines: LineCounter, source: string, overrides: readonly Override[]): Locate {
  const { isMap, isScalar, isSeq } = yaml();
  return (path: Path, keyNode = false): Origin => {
    const fromOption = overrideFor(path, overrides);
    if (fromOption) return { source: fromOption.option };
    // Walk down as far as the document goes; report the deepest node found.
    let node: unknown = doc.contents;
    let offset = (doc.contents as Node | null)?.range?.[0] ?? 0;
    for (const key of path) {
      if (isMap(node)) {
        const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(key));
        if (!pair) break;
        const keyRange = (pair.key as Node).range;
        offset = keyRange?.[0] ?? offset;
        node = pair.value;
      } else if (isSeq(node) && typeof key === 'number') {
        node = node.items[key];
        offset = (node as Node | undefined)?.range?.[0] ?? offset;
      } else break;
    }
    if (!keyNode && node && (node as Node).range) offset = (node as Node).range?.[0] ?? offset;
    const pos = lines.linePos(offset);
    return { source, line: pos.line, col: pos.col };
  };
}
