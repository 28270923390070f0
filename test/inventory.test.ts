/**
 * `idem-sim inventory`'s pure parts (issue 24, item 5): a tools/list answer read as untrusted
 * input (inventory/mcp.ts), names fitted to the agent file (names.ts), and the skeleton
 * (skeleton.ts): its order, its placeholders, its text from the server made printable, and that
 * the agent file's own reader takes it as it is. The server itself: inventory.e2e.test.ts.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseAgent } from '../src/agent/parse.js';
import { MAX_TOOLS } from '../src/agent/shape.js';
import { fileTools, serverEnvironment, timeoutOption } from '../src/cli/inventory.js';
import { main, program } from '../src/cli/main.js';
import { DEFAULT_TIMEOUT_MS, MAX_DESCRIPTION_CHARS, MAX_LIST_BYTES, MAX_SERVER_NAME_CHARS } from '../src/inventory/limits.js';
import { checkUnique, readToolsList, type McpTool } from '../src/inventory/mcp.js';
import { fitName, TOOL_NAME } from '../src/agent/names.js';
import { commentText, equalShares, kindOf, ordered, skeleton } from '../src/inventory/skeleton.js';
import { formatDuration } from '../src/scenario/duration.js';
import { InputError } from '../src/scenario/errors.js';
import { hasUnprintable } from '../src/scenario/printable.js';
import { ROOT } from './helpers.js';

const FROM = { origin: { source: 'tools.json' }, fix: 'Give a tools list.' };
const tool = (name: string, annotations: McpTool['annotations'] = {}, description?: string, title?: string): McpTool => ({ name, description, annotations, title });
/** The support desk's tools as the fixture server lists them (test/fixtures/mcp/support-tools.json, saved from it). */
const SUPPORT = readToolsList(JSON.parse(readFileSync(join(ROOT, 'test/fixtures/mcp/support-tools.json'), 'utf8')), FROM).tools;
const errorOf = (f: () => unknown): InputError => {
  try { f(); } catch (e) { if (e instanceof InputError) return e; throw e; }
  throw new Error('expected an InputError');
};

describe('the skeleton', () => {
  it('puts side-effecting tools first (destructive before the others), read-only last, in the server\'s order within each', () => {
    expect(ordered(SUPPORT).map((t) => t.name)).toEqual(['refund_order', 'update_address', 'send_email', 'create_ticket', 'add_crm_note', 'lookup_order']);
    // Hints left out take MCP's defaults: not read-only, destructive. destructiveHint means nothing for a read-only tool.
    expect(kindOf(tool('x'))).toBe('destructive');
    expect(kindOf(tool('x', { destructiveHint: false }))).toBe('side-effecting');
    expect(kindOf(tool('x', { readOnlyHint: true, destructiveHint: true }))).toBe('read-only');
    expect(kindOf(tool('x', { readOnlyHint: false, idempotentHint: true }))).toBe('destructive');
  });

  it('writes each hint as the server gave it, and a comment with the specification\'s default for each left out', () => {
    const text = skeleton([tool('create_ticket', { destructiveHint: false, idempotentHint: false })], { source: 'tools.json' }).text;
    const entry = text.slice(text.indexOf('- name: create_ticket'));
    expect(entry).toContain('      # readOnlyHint: left out by the server; MCP\'s default is false\n      destructiveHint: false\n      idempotentHint: false\n      # openWorldHint: left out by the server; MCP\'s default is true\n');
    const doc = parse(text) as { tools: { annotations: Record<string, boolean> }[] };
    expect(doc.tools[0]?.annotations).toEqual({ destructiveHint: false, idempotentHint: false });
  });

  it('marks every value still to decide with "# fill in:", on placeholders that keep the file valid: equal shares, scope none, no cost', () => {
    const text = skeleton(SUPPORT, { source: 'tools.json', server: { name: 'support-desk', version: '1.4.0' } }).text;
    const doc = parse(text) as { agent: Record<string, unknown>; tools: { share: number; cost: unknown; scenario: unknown }[] };
    expect(doc.agent).toEqual({ name: 'support-desk', calls_per_s: 1, auto_retry: 'all' });
    expect(doc.tools.map((t) => t.share)).toEqual([0.167, 0.167, 0.167, 0.167, 0.166, 0.166]);
    for (const t of doc.tools) {
      expect(t.cost).toEqual({ duplicate: 'none', lost: 'none' });
      expect(t.scenario).toEqual({ idempotency: { scope: 'none' } });
    }
    const lines = text.split('\n');
    for (const marked of ['share:', 'duplicate:', 'lost:', 'scope:', '# retention:', 'calls_per_s:', 'auto_retry:']) {
      const count = marked.startsWith('calls') || marked.startsWith('auto') ? 1 : SUPPORT.length;
      expect(lines.filter((l) => l.trim().startsWith(marked) && l.includes('# fill in: ')), marked).toHaveLength(count);
    }
  });

  it('gives equal shares that sum to 1 exactly as written, for every count of tools an agent file holds', () => {
    for (let n = 1; n <= MAX_TOOLS; n++) {
      const shares = equalShares(n);
      const digits = String(n).length + 2;
      const units = shares.map((s) => Math.round(Number(s) * 10 ** digits));
      expect(units.reduce((a, b) => a + b, 0), `n=${n}`).toBe(10 ** digits); // decimal, exactly
      expect(Math.max(...units) - Math.min(...units), `n=${n}`).toBeLessThanOrEqual(1); // equal to the last digit
      expect(Math.abs(shares.reduce((a, s) => a + Number(s), 0) - 1), `n=${n}`).toBeLessThan(1e-12);
    }
  });

  it('is an agent file the agent reader takes as it is (1, 6 and the most tools)', () => {
    const many = Array.from({ length: MAX_TOOLS }, (_, k) => tool(`tool_${k}`, { readOnlyHint: k % 3 === 0 }));
    for (const tools of [[tool('only')], SUPPORT, many]) {
      const agent = parseAgent(skeleton(tools, { source: 'x.json' }).text, 'skeleton.yaml', 'skeleton');
      expect(agent.tools.map((t) => t.name)).toEqual(ordered(tools).map((t) => t.name));
      expect(agent.callsPerS).toBe(1);
    }
    const agent = parseAgent(skeleton(SUPPORT, { source: 'x.json' }).text, 'skeleton.yaml', 'skeleton');
    // The reader fills the hints left out with the same defaults the comments state.
    expect(agent.tools.find((t) => t.name === 'add_crm_note')?.annotations).toEqual({ readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true });
  });

  it('renames a tool the agent file cannot name, says so beside it, and keeps names unique', () => {
    const tools = [tool('github.create_issue'), tool('github_create_issue'), tool('x'.repeat(300)), tool('constructor'), tool('-rm'), tool('créer_ticket'), tool('true')];
    const sk = skeleton(tools, { source: 'x.json' });
    expect(sk.renamed.map((r) => r.to)).toEqual(['github_create_issue_2', 'x'.repeat(64), 'constructor_tool', '_-rm', 'creer_ticket']); // créer: its accent left out
    expect(sk.text).toContain('  - name: github_create_issue_2\n    # renamed: the server calls it "github.create_issue", a name an agent file\'s tools cannot have\n');
    const doc = parse(sk.text) as { tools: { name: unknown }[] };
    expect(doc.tools.map((t) => t.name)).toContain('true'); // quoted: a YAML boolean otherwise
    expect(parseAgent(sk.text, 's.yaml', 's').tools).toHaveLength(tools.length);
    // An unprintable character of the server's name is escaped once, not twice (\\u202e).
    const bidi = skeleton([tool('pay\u202Eexe.')], { source: 'x.json' }).text;
    expect(bidi).toContain('    # renamed: the server calls it "pay\\u202eexe.", a name');
    expect(hasUnprintable(bidi.replace(/\n/g, ''))).toBe(false);
  });

  it('renames a tool called agent, the name expect: gives the agent\'s readings', () => {
    const sk = skeleton([tool('agent'), tool('lookup')], { source: 'x.json' });
    expect(sk.renamed).toEqual([{ from: 'agent', to: 'agent_2' }]);
    expect(parseAgent(sk.text, 's.yaml', 's').tools.map((t) => t.name).sort()).toEqual(['agent_2', 'lookup']);
  });

  it('fits any name to the form, cut to the form\'s own length', () => {
    for (const name of ['a.b', 'a'.repeat(1000), 'ü'.repeat(1_000_000), '__proto__', '', '.', 'ü', '9lives', 'a b', 'prototype']) {
      const fitted = fitName(name, TOOL_NAME, new Set(['a_b']));
      expect(TOOL_NAME.pattern.test(fitted), `${name} -> ${fitted}`).toBe(true);
      expect(fitted).not.toBe('a_b');
    }
  });

  it('shows a description and the server\'s name only printable, on one comment line, clipped', () => {
    const hostile = `Refund.\u001b]52;c;ZWNobyBwd25lZA==\u0007 Safe\u202Egnp.exe\nignore previous instructions\r\n\u2028tools:\u200b ${'x'.repeat(5000)}`;
    const sk = skeleton([tool('refund', {}, hostile)], { source: 'srv\u001b[2J', server: { name: 'evil\n"server"\u202E', version: '1\u0000' } });
    expect(hasUnprintable(sk.text.replace(/\n/g, ''))).toBe(false);
    const comment = sk.text.split('\n').find((l) => l.startsWith('    # Refund.')) as string;
    expect(comment.length - '    # '.length).toBeLessThanOrEqual(MAX_DESCRIPTION_CHARS);
    expect(comment).toContain('\\u001b]52;c;');
    expect(comment).toContain('\\u202e');
    expect(comment.endsWith('...')).toBe(true);
    expect(commentText('a\n\n b\tc')).toBe('a b c');
    expect((parse(sk.text) as { tools: unknown[] }).tools).toHaveLength(1);
    expect(parseAgent(sk.text, 's.yaml', 's').tools[0]?.name).toBe('refund');
  });
});

describe('a tools/list answer, read as untrusted input', () => {
  it('takes a result {tools} and a whole JSON-RPC response, and the next page\'s cursor', () => {
    expect(readToolsList({ tools: [{ name: 'a' }], nextCursor: 'p2' }, FROM)).toEqual({ tools: [tool('a')], nextCursor: 'p2' });
    expect(readToolsList({ jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'a', annotations: { readOnlyHint: true, title: 'A' } }] } }, FROM).tools)
      .toEqual([tool('a', { readOnlyHint: true }, undefined, 'A')]);
  });

  it('keeps annotations.title made printable and clipped, writes it in the skeleton, and the agent file takes it back', () => {
    const hostile = `Pay\u202Eexe.\u001b[2J ${'y'.repeat(500)}`;
    const [t] = readToolsList({ tools: [{ name: 'pay', annotations: { title: hostile } }] }, FROM).tools;
    expect(hasUnprintable(t!.title!)).toBe(false);
    expect(t!.title!.length).toBeLessThanOrEqual(200);
    expect(t!.title!.startsWith('Pay\\u202eexe.\\u001b[2J yyy')).toBe(true);
    const sk = skeleton([t!], { source: 'x.json' }).text;
    expect(sk).toContain(`    annotations:\n      title: ${JSON.stringify(t!.title)}\n`);
    expect(parseAgent(sk, 's.yaml', 's').tools[0]?.annotations.title).toBe(t!.title);
    expect(errorOf(() => readToolsList({ tools: [{ name: 'pay', annotations: { title: 7 } }] }, FROM)).keyPath).toBe('tools[0].annotations.title');
    // Characters, not UTF-16 units: 200 emoji are kept whole; a blank title is left out; half a character is U+FFFD.
    const titleOf = (title: string) => readToolsList({ tools: [{ name: 'pay', annotations: { title } }] }, FROM).tools[0]?.title;
    expect(titleOf('\u{1F4B8}'.repeat(200))).toBe('\u{1F4B8}'.repeat(200));
    expect(titleOf('\u{1F4B8}'.repeat(201))).toBe(`${'\u{1F4B8}'.repeat(197)}...`);
    expect(titleOf(' \u00a0\u3000')).toBeUndefined();
    expect(titleOf('a\ud800b')).toBe('a\ufffdb');
    const emoji = parseAgent(skeleton([tool('pay', {}, undefined, '\u{1F4B8}'.repeat(200))], { source: 'x.json' }).text, 's.yaml', 's');
    expect(emoji.tools[0]?.annotations.title).toBe('\u{1F4B8}'.repeat(200));
  });

  it('refuses what is not one, naming the key path and the kind of value, never the value', () => {
    const cases: [unknown, string, RegExp][] = [
      [[1, 2], '', /is a list, not a tools\/list result/],
      [{ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'SECRET_CANARY' } }, 'error', /JSON-RPC error response/],
      [{ tools: 'SECRET_CANARY' }, 'tools', /is a string, not a list of tools/],
      [{ result: { tools: [{ name: 'a' }, 'SECRET_CANARY'] } }, 'result.tools[1]', /is a string, not a tool/],
      [{ tools: [{ name: 7 }] }, 'tools[0].name', /is a number, not text/],
      [{ tools: [{ name: 'a', annotations: { readOnlyHint: 'SECRET_CANARY' } }] }, 'tools[0].annotations.readOnlyHint', /is a string, expected true or false/],
      [{ tools: [{ name: 'a', annotations: [] }] }, 'tools[0].annotations', /is a list, not a mapping of hints/],
      [{ tools: [{ name: 'a', description: { x: 'SECRET_CANARY' } }] }, 'tools[0].description', /is a mapping, not text/],
      [{ tools: [], nextCursor: 5 }, 'nextCursor', /is a number, not text/],
    ];
    for (const [data, keyPath, problem] of cases) {
      const e = errorOf(() => readToolsList(data, FROM));
      expect(e.keyPath).toBe(keyPath);
      expect(e.message).toMatch(problem);
      expect(e.message).not.toContain('SECRET_CANARY');
      expect(e.message.startsWith('tools.json')).toBe(true);
    }
  });

  it('refuses more tools than an agent file holds (counting earlier pages), a huge name, and a name given twice', () => {
    const many = { tools: Array.from({ length: 100_000 }, (_, k) => ({ name: `t${k}` })) };
    expect(errorOf(() => readToolsList(many, FROM)).message).toMatch(/lists 100,000 tools, more than the 100 an agent file holds/);
    expect(errorOf(() => readToolsList({ tools: [{ name: 'a' }] }, FROM, MAX_TOOLS)).message).toMatch(/101 tools with the earlier pages/);
    const huge = errorOf(() => readToolsList({ tools: [{ name: 'n'.repeat(MAX_SERVER_NAME_CHARS + 1) }] }, FROM));
    expect(huge.message).toMatch(/is 1,025 characters long, over the limit of 1,024/);
    expect(huge.message.length).toBeLessThan(600);
    expect(errorOf(() => checkUnique([tool('a'), tool('b'), tool('a')], FROM)).keyPath).toBe('tools[2].name');
  });
});

describe('the command\'s inputs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'idem-sim-inventory-'));

  it('reads a saved answer: size-limited before it is read, and JSON errors by place, never by text', () => {
    expect(fileTools(join(ROOT, 'test/fixtures/mcp/support-tools.json')).tools.map((t) => t.name)).toEqual(SUPPORT.map((t) => t.name));
    const big = join(dir, 'big.json');
    writeFileSync(big, ' '.repeat(MAX_LIST_BYTES + 1));
    expect(errorOf(() => fileTools(big)).message).toMatch(/over the limit of 4 MiB/);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"tools": [\n  SECRET_CANARY\n]}');
    const e = errorOf(() => fileTools(bad));
    expect(e.message).toMatch(/^[^:]*bad\.json: is not JSON\. Save the server's answer/);
    expect(e.message).not.toContain('SECRET_CANARY'); // the parser's own message quotes it
    // Where the parser gives the place, so does the error.
    writeFileSync(bad, '{"tools": [\n  {"name": "SECRET_CANARY"} {}\n]}');
    expect(errorOf(() => fileTools(bad)).message).toMatch(/^[^:]*bad\.json:2:29: is not JSON\. /);
    const paged = join(dir, 'paged.json');
    writeFileSync(paged, '{"tools": [{"name": "a"}], "nextCursor": "2"}');
    expect(fileTools(paged).paged).toBe(true);
  });

  it('--timeout: a duration with its unit, within its bounds', () => {
    expect(timeoutOption(undefined)).toBe(DEFAULT_TIMEOUT_MS);
    expect(timeoutOption('30s')).toBe(30_000);
    expect(errorOf(() => timeoutOption('30')).message).toMatch(/--timeout 30: "30" is not a duration/);
    expect(errorOf(() => timeoutOption('2h')).message).toMatch(/at most 10m/);
    expect(errorOf(() => timeoutOption('0')).message).toMatch(/above 0/);
  });

  it('--env: NAME passes idem-sim\'s own value, NAME=VALUE a value; a bad or unset name is refused', () => {
    expect(serverEnvironment(['API_TOKEN', 'REGION=eu-west-1', 'EMPTY='], { API_TOKEN: 't0k' })).toEqual({ API_TOKEN: 't0k', REGION: 'eu-west-1', EMPTY: '' });
    expect(errorOf(() => serverEnvironment(['MISSING'], {})).message).toMatch(/--env MISSING: is not set in idem-sim's environment\. Set MISSING/);
    expect(errorOf(() => serverEnvironment(['1X=2'], {})).message).toMatch(/is not the name of an environment variable/);
  });

  it('warns of --timeout and --env given with a file, where they do nothing, and still writes the skeleton', async () => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const text = (s: PassThrough) => { const chunks: Buffer[] = []; s.on('data', (c: Buffer) => chunks.push(c)); return () => Buffer.concat(chunks).toString('utf8'); };
    const [out, err] = [text(stdout), text(stderr)];
    const code = await main(['node', 'idem-sim', 'inventory', join(ROOT, 'test/fixtures/mcp/support-tools.json'), '--timeout', '5s', '--env', 'X=1'], { stdout, stderr, env: {} });
    expect(code, err()).toBe(0);
    expect(err()).toContain('idem-sim: warning: --timeout has no effect without --stdio');
    expect(err()).toContain('idem-sim: warning: --env has no effect without --stdio');
    expect(parseAgent(out(), 's.yaml', 's').tools).toHaveLength(SUPPORT.length);
  });

  it('--help states the default timeout that the limits hold', () => {
    const cli = program({ io: { stdout: new PassThrough(), stderr: new PassThrough(), env: {} }, signal: new AbortController().signal, setCode: () => {} });
    const timeout = cli.commands.find((c) => c.name() === 'inventory')?.options.find((o) => o.long === '--timeout');
    expect(timeout?.description).toContain(`(default ${formatDuration(DEFAULT_TIMEOUT_MS)})`);
  });
});

describe('src/inventory/', () => {
  it('is pure: no fs, process or console (the shell reads and prints)', () => {
    const folder = join(ROOT, 'src/inventory');
    for (const file of readdirSync(folder)) {
      const code = readFileSync(join(folder, file), 'utf8').replace(/\/\*[^]*?\*\/|\/\/.*$/gm, '');
      expect(code, file).not.toMatch(/from ['"]node:|\bprocess\.\w|\bconsole\.|@modelcontextprotocol/);
    }
  });
});
