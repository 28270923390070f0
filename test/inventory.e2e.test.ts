/**
 * `idem-sim inventory` through the real binary (issue 24, item 5): against a real MCP server
 * written with the official SDK (test/fixtures/mcp/support-server.mjs), started over stdio as
 * clients start one, with and without pages, and run as it is written; from the same server's
 * answer saved as JSON; and against servers that misbehave (test/fixtures/mcp/hostile-server.mjs): each refused with exit
 * 2 and one paragraph, nothing written, and the server's process gone.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseAgent } from '../src/agent/parse.js';
import { BIN, cli, ROOT, type CliResult } from './helpers.js';

const FIXTURES = join(ROOT, 'test', 'fixtures', 'mcp');
const dir = mkdtempSync(join(tmpdir(), 'idem-sim-inventory-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const scratchFile = (name: string) => join(dir, `${files++}-${name}`);

/** `idem-sim inventory --stdio ... -- node FIXTURE args --pid-file FILE`, and the server's process id. */
function inventory(fixture: string, args: string[], opts: string[] = [], env: Record<string, string> = {}): CliResult & { pid: number } {
  const pidFile = scratchFile('pid');
  const r = cli(['inventory', '--stdio', ...opts, '--', process.execPath, join(FIXTURES, fixture), ...args, '--pid-file', pidFile], { env });
  return { ...r, pid: existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : -1 };
}

/** Whether the process is gone, not even a zombie left unreaped (given a moment to be reaped by init when idem-sim did not). */
async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 50 && existsSync(`/proc/${pid}`); i++) await new Promise((r) => setTimeout(r, 20));
  return !existsSync(`/proc/${pid}`);
}

/** A refusal: exit 2, one paragraph on standard error, nothing on standard output. */
function refused(r: CliResult, problem: RegExp): void {
  expect(r.status, r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(/^idem-sim: error: the server `\S*node \S*hostile-server\.mjs [^`]*`(: |, key )/);
  expect(r.stderr).toMatch(problem);
  expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

const ORDER = ['refund_order', 'update_address', 'send_email', 'create_ticket', 'add_crm_note', 'lookup_order'];
/** The skeleton from `tools:` on: what a file's and a server's skeletons share. */
const toolsPart = (text: string) => text.slice(text.indexOf('\ntools:\n'));
/** The skeleton but the header's line naming the command that started the server. */
const butCommand = (text: string) => text.replace(/^# from .*\n/m, '');

describe('inventory of a real MCP server (the official SDK, over stdio)', () => {
  const live = inventory('support-server.mjs', []);

  it('writes a skeleton of its six tools, side-effecting first, that the agent reader takes, and ends the server', async () => {
    expect(live.status, live.stderr).toBe(0);
    const agent = parseAgent(live.stdout, 'skeleton.yaml', 'skeleton');
    expect(agent.name).toBe('support-desk');
    expect(agent.tools.map((t) => t.name)).toEqual(ORDER);
    expect(agent.tools.find((t) => t.name === 'refund_order')?.annotations).toEqual({ title: 'Refund an order', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true });
    expect(live.stdout).toMatch(/^# An agent file written by idem-sim inventory: the 6 tools of the server support-desk 1\.4\.0,\n/);
    expect(live.stderr).toBe('idem-sim: inventory: 6 tools: 2 destructive, 3 side-effecting and not destructive, 1 read-only. Fill in the lines marked "fill in:" (shares, keys, retention, costs, traffic) before trusting a run of it.\n');
    expect(live.stderr).not.toContain('listening on stdio'); // the server's own standard error is not echoed
    expect(await gone(live.pid)).toBe(true);
  });

  it('runs as it is written: idem-sim run takes the skeleton (placeholders and all), warning of the hint its placeholder key belies', () => {
    const file = scratchFile('skeleton.yaml');
    writeFileSync(file, live.stdout);
    const r = cli(['run', file]);
    expect(r.status, r.stderr).toBe(0);
    const header = r.stdout.split('\n').find((l) => l.includes('refund_order')) ?? '';
    expect(header.split('│').map((c) => c.trim()).filter((c) => c !== '')).toEqual(ORDER);
    // update_address is marked idempotent, and scope none stands until its key is filled in.
    expect(r.stderr).toMatch(/key tools\[1\]\.annotations\.idempotentHint: update_address is marked idempotent, but uses no idempotency key/);
  });

  it('reads every page of a server that lists its tools a few at a time (nextCursor)', () => {
    const paged = inventory('support-server.mjs', ['--page-size', '4']);
    expect(paged.status, paged.stderr).toBe(0);
    expect(butCommand(paged.stdout)).toBe(butCommand(live.stdout));
  });

  it('gives the same tools from the server\'s answer saved as JSON (a JSON-RPC response)', () => {
    const r = cli(['inventory', join(FIXTURES, 'support-tools.json')]);
    expect(r.status, r.stderr).toBe(0);
    expect(toolsPart(r.stdout)).toBe(toolsPart(live.stdout));
    expect((parse(r.stdout) as { agent: object }).agent).toEqual({ calls_per_s: 1, auto_retry: 'all' });
  });

  it('writes --out whole, and leaves none when the server fails', () => {
    const out = scratchFile('agent.yaml');
    const r = cli(['inventory', '--out', out, '--stdio', '--', process.execPath, join(FIXTURES, 'support-server.mjs')]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(butCommand(readFileSync(out, 'utf8'))).toBe(butCommand(live.stdout));
    const failed = scratchFile('failed.yaml');
    expect(cli(['inventory', '--out', failed, '--stdio', '--timeout', '1s', '--', process.execPath, join(FIXTURES, 'hostile-server.mjs'), 'hang']).status).toBe(2);
    expect(existsSync(failed)).toBe(false);
  });

  it('gives the server only the SDK\'s safe environment, and what --env adds', () => {
    const env = { IDEM_TEST_SECRET: 'SECRET_CANARY', IDEM_TEST_REGION: 'eu' };
    const names = (r: CliResult) => (parse(r.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name);
    const plain = inventory('hostile-server.mjs', ['env'], [], env);
    expect(plain.status, plain.stderr).toBe(0);
    expect(names(plain).every((n) => ['env_HOME', 'env_LOGNAME', 'env_PATH', 'env_SHELL', 'env_TERM', 'env_USER'].includes(n))).toBe(true);
    const given = inventory('hostile-server.mjs', ['env'], ['--env', 'IDEM_TEST_SECRET', '--env', 'EXTRA=1'], env);
    expect(names(given)).toEqual(expect.arrayContaining(['env_IDEM_TEST_SECRET', 'env_EXTRA']));
    expect(names(given)).not.toContain('env_IDEM_TEST_REGION');
  });
});

describe('inventory of a server that misbehaves', () => {
  it('one that never answers: stopped at --timeout, killed though it ignores SIGTERM', async () => {
    const r = inventory('hostile-server.mjs', ['hang'], ['--timeout', '1s']);
    refused(r, /did not finish within 1s \(it was at initialize\)\. Check that the command after -- starts an MCP server .* --timeout 30s\./);
    expect(await gone(r.pid)).toBe(true);
  });

  it('one that writes what is not a message on its standard output', async () => {
    const r = inventory('hostile-server.mjs', ['garbage']);
    refused(r, /wrote a line on its standard output that is not an MCP \(JSON-RPC\) message.*\(during initialize\)/);
    expect(await gone(r.pid)).toBe(true);
  });

  it('one that sends 100,000 tools, in one message or a page at a time for ever', async () => {
    const huge = inventory('hostile-server.mjs', ['many', '100000']);
    refused(huge, /sent a message over the limit of 4 MiB \(during tools\/list\)/);
    refused(inventory('hostile-server.mjs', ['many', '101']), /key tools: lists 101 tools, more than the 100 an agent file holds\. Save the server's tools\/list answer to a file/);
    const endless = inventory('hostile-server.mjs', ['endless']);
    refused(endless, /key page 101: tools: lists 101 tools with the earlier pages, more than the 100/);
    expect(await gone(huge.pid)).toBe(true);
    expect(await gone(endless.pid)).toBe(true);
  });

  it('one that exits at once: the error ends with a short tail of its standard error, and a noisy one\'s is never echoed', () => {
    refused(inventory('hostile-server.mjs', ['crash']), /ended before it answered initialize\. .* Its standard error ended: "Error: DATABASE_URL is not set"\.$/m);
    const noisy = inventory('hostile-server.mjs', ['noisy']);
    expect(noisy.status, noisy.stderr).toBe(0);
    expect(noisy.stderr).not.toContain('log line');
  });

  it('a command that does not exist, and --stdio without one', () => {
    const r = cli(['inventory', '--stdio', '--', 'idem-sim-no-such-server']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^idem-sim: error: the server `idem-sim-no-such-server`: could not be started: no such command/);
    expect(cli(['inventory', '--stdio']).stderr).toMatch(/--stdio: needs the command that starts the server\. Write it after --/);
  });

  it('SIGINT while it waits: exit 130, nothing written, the server killed', async () => {
    const pidFile = scratchFile('pid');
    const out = scratchFile('interrupted.yaml');
    const child = spawn(process.execPath, [BIN, 'inventory', '--out', out, '--stdio', '--timeout', '60s', '--', process.execPath, join(FIXTURES, 'hostile-server.mjs'), 'hang', '--pid-file', pidFile], { cwd: ROOT });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    while (!existsSync(pidFile) || readFileSync(pidFile, 'utf8') === '') await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toMatch(/interrupted by SIGINT; nothing was written/);
    expect(existsSync(out)).toBe(false);
    expect(await gone(Number(readFileSync(pidFile, 'utf8')))).toBe(true);
  });
});
