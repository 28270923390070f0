/**
 * The structure issue's limits, kept: no source file over 300 lines and no function over 60
 * (generated files and declarative tables aside: a function made of one object or array
 * literal, such as a table of commands, is a table, not logic). And no unit test that a busy
 * machine can fail: none reads the wall clock or sets a timeout under the tier's own.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import config from '../vitest.config.js';
import { ROOT } from './helpers.js';

const MAX_FILE_LINES = 300;
const MAX_FUNCTION_LINES = 60;
/** The command-line shell stays a shell: what is a room's own lives in the room (docs/architecture.md). */
const MAX_CLI_LINES = 3500;

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

  it(`src/cli holds at most ${MAX_CLI_LINES} lines`, () => {
    const cli = FILES.filter((f) => relative(ROOT, f).startsWith('src/cli/'));
    expect(cli.length).toBeGreaterThan(10);
    const lines = cli.reduce((sum, f) => sum + readFileSync(f, 'utf8').split('\n').length - 1, 0);
    expect(lines).toBeLessThanOrEqual(MAX_CLI_LINES);
  });
});

type Project = { test: { name: string; exclude?: string[]; setupFiles?: string[] } };
const PROJECTS = (config.test?.projects ?? []) as Project[];
/** The unit tier's timeout (vitest.config.ts): the hang guard every unit test has. */
const TEST_TIMEOUT_MS = config.test?.testTimeout as number;
/** The suffixes of the other tiers' test files, from the globs the unit project excludes (.e2e.test.ts and the like). */
const OTHER_TIERS = (PROJECTS.find((p) => p.test.name === 'unit')?.test.exclude ?? []).flatMap((glob) => /^test\/\*\*\/\*(\..+)$/.exec(glob)?.[1] ?? []);
const OTHER_SETUP = PROJECTS.filter((p) => p.test.name !== 'unit').flatMap((p) => (p.test.setupFiles ?? []).map((f) => join(ROOT, f)));
/** The unit tier's test files and the modules of test/ they share (helpers, arbitraries), not the other tiers' setup files. */
const UNIT_FILES = sources(join(ROOT, 'test')).filter((f) => !OTHER_TIERS.some((suffix) => f.endsWith(suffix)) && !OTHER_SETUP.includes(f));

/** A clock read a unit test may keep (a seed, a file's name): the reason, on its line or the line above. */
const ALLOWED = /\/\/ clock allowed: \S/;
const HOOKS = new Set(['it', 'test', 'describe', 'suite', 'beforeAll', 'beforeEach', 'afterAll', 'afterEach']);

/** The name a call chain starts from: `it` for it.each(table)(...). */
function rootName(e: ts.Expression): string | undefined {
  while (ts.isCallExpression(e) || ts.isPropertyAccessExpression(e)) e = e.expression;
  return ts.isIdentifier(e) ? e.text : undefined;
}

/** A timeout given to a test or hook (a number, or an options object's timeout): its expression, if any. */
function timeoutOf(arg: ts.Expression): ts.Expression | undefined {
  if (ts.isNumericLiteral(arg)) return arg;
  if (!ts.isObjectLiteralExpression(arg)) return undefined;
  const prop = arg.properties.find((p) => p.name?.getText() === 'timeout');
  return prop === undefined ? undefined : ts.isPropertyAssignment(prop) ? prop.initializer : arg;
}

/**
 * The places a test file times itself, as `file:line what`: reads of the wall clock (Date.now(),
 * performance.now(), process.hrtime(), new Date()) without a `// clock allowed: why` comment,
 * and timeouts under the tier's own given to a test or hook (a timeout is a hang guard, not a
 * speed limit).
 */
function timings(name: string, text: string): string[] {
  const source = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true);
  const lines = text.split('\n');
  const found: string[] = [];
  const at = (node: ts.Node, what: string) => {
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
    if (!ALLOWED.test(lines[line] ?? '') && !ALLOWED.test(lines[line - 1] ?? '')) found.push(`${name}:${line + 1} ${what}`);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node)) {
      const on = node.expression.getText(source);
      if (node.name.text === 'now' && (on === 'Date' || on === 'performance')) at(node, `${on}.now()`);
      if (node.name.text === 'hrtime') at(node, `${on}.hrtime()`);
    } else if (ts.isIdentifier(node) && node.text === 'hrtime' && !ts.isPropertyAccessExpression(node.parent)) {
      at(node, 'hrtime');
    } else if (ts.isNewExpression(node) && node.expression.getText(source) === 'Date' && (node.arguments ?? []).length === 0) {
      at(node, 'new Date()');
    } else if (ts.isCallExpression(node) && HOOKS.has(rootName(node.expression) ?? '')) {
      for (const arg of node.arguments.slice(1)) {
        const timeout = timeoutOf(arg);
        // Not a number literal at least the tier's own: a limit on speed, or one the scan cannot read.
        const ms = timeout && ts.isNumericLiteral(timeout) ? Number(timeout.text.replaceAll('_', '')) : NaN;
        if (timeout && !(ms >= TEST_TIMEOUT_MS)) at(arg, `a timeout of ${timeout.getText(source)} ms, under the tier's ${TEST_TIMEOUT_MS}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('unit tests a busy machine cannot fail', () => {
  it('the scan finds every clock read and short timeout, and lets an allowed one be', () => {
    const text = [
      "it('a', () => { const t0 = Date.now(); f(); expect(Date.now() - t0).toBeLessThan(5); });",
      "const t = performance.now(); const b = process.hrtime.bigint(); const d = new Date();",
      "it.each([1])('b %s', () => undefined, 1000);",
      "beforeAll(() => undefined, { timeout: 5_000 });",
      "const seed = String(Date.now()); // clock allowed: a fresh seed, asserted on nowhere",
      `it('c', () => undefined, ${TEST_TIMEOUT_MS}); const when = new Date(0);`,
    ].join('\n');
    expect(timings('x.test.ts', text)).toEqual([
      'x.test.ts:1 Date.now()', 'x.test.ts:1 Date.now()', 'x.test.ts:2 performance.now()', 'x.test.ts:2 process.hrtime()', 'x.test.ts:2 new Date()',
      `x.test.ts:3 a timeout of 1000 ms, under the tier's ${TEST_TIMEOUT_MS}`, `x.test.ts:4 a timeout of 5_000 ms, under the tier's ${TEST_TIMEOUT_MS}`,
    ]);
  });

  it('no unit-tier test reads the wall clock or sets a timeout under the tier\'s (count the work instead, or time it in bench/)', () => {
    expect(UNIT_FILES.length).toBeGreaterThan(40);
    expect(UNIT_FILES.some((f) => f.endsWith('.e2e.test.ts'))).toBe(false);
    expect(UNIT_FILES.flatMap((f) => timings(relative(ROOT, f), readFileSync(f, 'utf8')))).toEqual([]);
  });
});
