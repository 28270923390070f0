/**
 * What the key-store tests share: where the services are, how to list a probe's keys, and the
 * scenario, secret and in-process command line of both stores-hardening files.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { Redis } from 'ioredis';
import { main } from '../src/cli/main.js';
import type { CliResult } from './helpers.js';

/** The services the tests talk to; override to point them elsewhere. */
export const REDIS_URL = process.env['IDEM_SIM_TEST_REDIS'] ?? 'redis://127.0.0.1:6379';
export const POSTGRES_URL = process.env['IDEM_SIM_TEST_POSTGRES'] ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Keys under a prefix (SCAN to the end). */
export async function redisKeys(redis: Redis, prefix: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 10_000);
    found.push(...keys);
    cursor = next;
  } while (cursor !== '0');
  return found;
}

/** `url` with its path replaced: another Redis database (`/9`) or PostgreSQL database. */
export function withPath(url: string, path: string): string {
  const u = new URL(url);
  u.pathname = path;
  return u.toString();
}

/**
 * A Redis database and a PostgreSQL database of their own, for tests that run `probe
 * --clean-up --force`: it removes every leftover that no running probe holds, so in the
 * shared ones it could take a namespace another test file keeps (`--keep`) while it looks at it.
 */
export const ISOLATED_REDIS_URL = process.env['IDEM_SIM_TEST_REDIS_ISOLATED'] ?? withPath(REDIS_URL, '/9');
export const ISOLATED_POSTGRES_DB = 'idem_sim_hardening';
export const ISOLATED_POSTGRES_URL = process.env['IDEM_SIM_TEST_POSTGRES_ISOLATED'] ?? withPath(POSTGRES_URL, `/${ISOLATED_POSTGRES_DB}`);

/** The password the stores-hardening tests put in URLs: it must never be shown. */
export const SECRET = 'Hunter2Secret';

let scenarioDir: string | undefined;
/** Writes a scenario into this test file's temporary directory (made on first use); returns its path. */
export function scenarioFile(name: string, text: string): string {
  scenarioDir ??= mkdtempSync(join(tmpdir(), 'idem-sim-hardening-'));
  const file = join(scenarioDir, name);
  writeFileSync(file, text);
  return file;
}
/** 200 ms handlers, 20 actions a second: a replay of N actions takes about N/20 s at --speedup 1. */
export const SLOW_YAML = 'load: {rate_per_s: 20}\nservice: {latency: {dist: constant, value: 200ms}}\nagent: {replan_probability: 0}\nidempotency: {scope: intent}\n';

/** The command line in this process (as the binary runs it, without the cost of starting Node each time). */
export async function idem(args: string[]): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const sink = (add: (s: string) => void) => new Writable({ write(chunk, _enc, done) { add(String(chunk)); done(); } });
  const status = await main(['node', 'idem-sim', ...args], { stdout: sink((s) => { stdout += s; }), stderr: sink((s) => { stderr += s; }), env: { NO_COLOR: '1' } });
  return { status, stdout, stderr };
}
