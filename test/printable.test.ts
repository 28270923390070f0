/** Hostile names never reach a terminal, a log or a JUnit file as control codes. */
import { XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { shellQuote } from '../src/scenario/shell-quote.js';
import { positiveInteger, seedOption } from '../src/cli/options.js';
import { parseOverrides } from '../src/scenario/overrides.js';
import { csvText } from '../src/report/csv.js';
import { escapeHtml } from '../src/report/html.js';
import { renderJunit } from '../src/report/junit.js';
import { show } from '../src/report/sweep.js';
import { InputError } from '../src/scenario/errors.js';
import { parseScenario } from '../src/scenario/parse.js';
import { clipped, hasUnprintable, printable, PRINTABLE_TEXT, SEED_TEXT } from '../src/scenario/printable.js';

const HOSTILE = '\u001b]0;PWNED\u0007\u001b[31mx\nFAKE: all passed\u202e';

describe('printable', () => {
  it('writes control characters, separators and bidi overrides as \\u escapes, and keeps the rest', () => {
    expect(printable(HOSTILE)).toBe('\\u001b]0;PWNED\\u0007\\u001b[31mx\\u000aFAKE: all passed\\u202e');
    expect(printable('plain ümlaut, 日本 and tabs')).toBe('plain ümlaut, 日本 and tabs');
    expect(printable('\u0000\u007f\u0085\u2028')).toBe('\\u0000\\u007f\\u0085\\u2028');
  });

  it('one rule: invisible format characters too (zero-width space and joiner, soft hyphen, isolates, byte order mark, annotations)', () => {
    expect(printable('a\u200bb\u200dc\u00add\u2066e\u2069f\uFEFFg\uFFF9h\u061c')).toBe('a\\u200bb\\u200dc\\u00add\\u2066e\\u2069f\\ufeffg\\ufff9h\\u061c');
    for (const c of ['\u200b', '\u202e', '\u0085', '\u2066']) expect(hasUnprintable(`x${c}`)).toBe(true);
    expect(hasUnprintable('plain ümlaut, 日本, – and ☆')).toBe(false);
  });

  it('seeds and the names a part carries are held to it (they are printed as they are)', () => {
    for (const bad of ['PASS \u202eLIAF', 'a\u200bb', '\u200b=1', 'x\u2066y', 'a\u0007']) {
      expect(SEED_TEXT.test(bad), bad).toBe(false);
      expect(PRINTABLE_TEXT.test(bad), bad).toBe(false);
    }
    for (const good of ['42', 'nightly-run', '日本', 'PASS LIAF']) {
      expect(SEED_TEXT.test(good), good).toBe(true);
      expect(PRINTABLE_TEXT.test(good), good).toBe(true);
    }
    // The scenario file's seed: the schema's compiled pattern is the same rule.
    expect(() => parseScenario('seed: "PASS \u202eLIAF"\n', 's.yaml')).toThrow(/key seed: got "PASS \\u202eLIAF", expected a whole number of at most 9007199254740991 either way \(quote a longer one\) or a string of .*no control or invisible format characters/);
    expect(() => seedOption('PASS \u202eLIAF')).toThrow(InputError);
  });

  it('HTML and a sweep\'s labels write them out too (line breaks are kept in HTML: a <pre> of YAML has them)', () => {
    expect(escapeHtml('a\u202eb <c>\nd\u200b')).toBe('a\\u202eb &lt;c&gt;\nd\\u200b');
    expect(show('\u202eevil.txt', 'service.latency.file')).toBe('\\u202eevil.txt');
  });

  it('an InputError built from hostile names prints none of their control codes', () => {
    const e = new InputError({ source: HOSTILE, line: 2 }, `a.${HOSTILE}`, `unknown key "${HOSTILE}"`, 'Fix it.');
    expect(e.message).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
    expect(e.message).toContain('\\u001b]0;PWNED');
  });
});

describe('long input in errors', () => {
  const huge = '9'.repeat(100_000);
  /** The message of what `run` throws, or '' if it does not throw. */
  const messageOf = (run: () => unknown): string => { try { run(); return ''; } catch (e) { return (e as Error).message; } };

  it('clipped keeps short text, and shortens long text to its start, its end and its length', () => {
    expect(clipped('--set client.timeout=2s')).toBe('--set client.timeout=2s');
    const c = clipped(`a${huge}z`);
    expect(c.length).toBeLessThanOrEqual(200);
    expect(c).toMatch(/^a9+\.\.\.9+z \(100002 characters\)$/);
  });

  it('a 100 KB --set value, option value or whole number is not echoed whole in its error', () => {
    const set = messageOf(() => parseScenario('', 's.yaml', parseOverrides({ set: [`client.timeout=${huge}`] })));
    const threads = messageOf(() => positiveInteger('--threads', huge));
    for (const m of [set, threads]) {
      expect(m).toMatch(/100,?0\d\d characters/);
      expect(m.length).toBeLessThan(600);
    }
  });
});

describe('errors of any origin', () => {
  it('clip the source, the key path and the problem (a 100 KB key to --set, a path inside "cannot create")', () => {
    const huge = 'a'.repeat(100_000);
    const e = new InputError({ source: `--set ${huge}=1` }, huge, `unknown key "${huge}"`, 'Fix it.');
    expect(e.message.length).toBeLessThan(1600);
    expect(e.message).toMatch(/^--set a+\.\.\.a+=1 \(100008 characters\), key a+\.\.\.a+ \(100000 characters\): unknown key "a+\.\.\.a+" \(100014 characters\)\. Fix it\.$/);
  });

  it('clipped never cuts a character written as two UTF-16 units in half', () => {
    const c = clipped('😀'.repeat(200), 100);
    expect(c).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  });
});

describe('CSV cells', () => {
  it('a text cell a spreadsheet would run as a formula gets a \' before it; numbers, text that is a plain number (a seed -5) and other text are as they are', () => {
    const csv = csvText([['=1+1', '+x', '-2+3', "-cmd|' /C calc'!A0", '@SUM(1)', '\uFF1D1', 'lab-defaults', -2.5, 0, '-5', '1e3', ' =1+1']], 'abcdefghijkl'.split(''));
    expect(csv.split('\n')[1]).toBe("'=1+1,'+x,'-2+3,'-cmd|' /C calc'!A0,'@SUM(1),'\uFF1D1,lab-defaults,-2.5,0,-5,1e3,' =1+1");
  });

  it('text is printable first, by the rule of the terminal: a zero-width space, a byte order mark or a tab before = is written out, no formula and nothing hidden', () => {
    const csv = csvText([['\u200b=1+1.yaml', '\uFEFF=1', '\tx', 'a\u202eb', 'a\nb']], ['a', 'b', 'c', 'd', 'e']);
    expect(csv.split('\n')[1]).toBe('\\u200b=1+1.yaml,\\ufeff=1,\\u0009x,a\\u202eb,a\\u000ab');
  });

  it('a number with no finite value is an empty cell, never Infinity or NaN', () => {
    expect(csvText([[Infinity, -Infinity, NaN, 1]], ['a', 'b', 'c', 'd']).split('\n')[1]).toBe(',,,1');
  });
});

describe('shellQuote', () => {
  it("quotes a name with control codes in bash's $'...' form, byte for byte", () => {
    expect(shellQuote('a\u001b[31m\n\'b\\.yaml')).toBe("$'a\\x1b[31m\\x0a\\x27b\\x5c.yaml'");
    expect(shellQuote('é\u0007')).toBe("$'\\xc3\\xa9\\x07'");
    expect(shellQuote("it's")).toBe("'it'\\''s'");
    expect(shellQuote('plain.yaml')).toBe('plain.yaml');
  });
});

describe('JUnit with a hostile file name', () => {
  it('stays well-formed XML 1.0 (no control character, not even as a reference)', () => {
    const xml = renderJunit({
      checked: [{ name: HOSTILE, file: `${HOSTILE}.yaml`, seed: '1', actions: 1, warnings: [], verdicts: [], coupled: false }],
      errors: [{ name: HOSTILE, file: `${HOSTILE}.yaml`, message: `${HOSTILE}.yaml: the scenario file does not exist.` }],
      skipped: [],
    }, '0.1.0');
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
  });
});

describe('whole-number options', () => {
  it('take decimal and exponent notation only', () => {
    expect(positiveInteger('--threads', '8')).toBe(8);
    expect(positiveInteger('--actions', '1e6')).toBe(1_000_000);
    for (const bad of ['0x8', '0b1', '', '8.5', '-1', '1e', 'Infinity']) expect(() => positiveInteger('--threads', bad)).toThrow(InputError);
  });
});
