/**
 * The structure issue's limits, kept: no source file over 300 lines and no function over 60
 * (generated files and declarative tables aside: a function made of one object or array
 * literal, such as a table of commands, is a table, not logic).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

const MAX_FILE_LINES = 300;
const MAX_FUNCTION_LINES = 60;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return sources(path);
    return d.name.endsWith('.ts') && !d.name.includes('.generated.') ? [path] : [];
  });
}

const FILES = sources(join(ROOT, 'src'));

/** Functions longer than the limit, as `file:line name (n lines)`. */
function longFunctions(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const body = node.body as ts.Node;
      // A table: the body is one returned literal (or an arrow's literal).
      const statements = ts.isBlock(body) ? body.statements : undefined;
      const only = statements?.length === 1 ? statements[0] : undefined;
      const literal = (n: ts.Node | undefined) => n !== undefined && (ts.isObjectLiteralExpression(n) || ts.isArrayLiteralExpression(n) || ts.isTemplateExpression(n));
      const table = literal(ts.isBlock(body) ? (only && ts.isReturnStatement(only) ? only.expression : undefined) : ts.isParenthesizedExpression(body) ? body.expression : body);
      if (end - start + 1 > MAX_FUNCTION_LINES && !table) {
        const name = (node as ts.FunctionLikeDeclaration).name?.getText(source) ?? '(anonymous)';
        found.push(`${relative(ROOT, file)}:${start + 1} ${name} (${end - start + 1} lines)`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the structure limits', () => {
  it(`no source file is over ${MAX_FILE_LINES} lines`, () => {
    const long = FILES.map((f) => [relative(ROOT, f), readFileSync(f, 'utf8').split('\n').length - 1] as const).filter(([, n]) => n > MAX_FILE_LINES);
    expect(long).toEqual([]);
  });

  it(`no function is over ${MAX_FUNCTION_LINES} lines`, () => {
    expect(FILES.flatMap(longFunctions)).toEqual([]);
  });
});
