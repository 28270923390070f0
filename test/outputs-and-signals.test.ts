/**
 * Output files (hardening): a planted link cannot redirect a write, and nothing is truncated
 * before the work succeeded. Signals, through the real binary: outputs-and-signals.e2e.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, closeSync, constants, openSync, readdirSync, readFileSync, readSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Interrupted } from '../src/exec/interrupted.js';
import { command } from './command-line.js';
import { PendingOutput } from '../src/io/outputs.js';
import { InputError } from '../src/scenario/errors.js';
import { removeScratch, scratch } from './helpers.js';

// randomBytes as it is, unless a test fixes its next value (to plant a file at the very name chosen).
vi.mock('node:crypto', async (original) => {
  const real = await original<typeof import('node:crypto')>();
  return { ...real, randomBytes: vi.fn(real.randomBytes) };
});

afterEach(removeScratch);

const sink = { write: () => true } as unknown as NodeJS.WritableStream;

describe('PendingOutput', () => {
  it('never writes through a link planted at any predictable temporary name', () => {
    const dir = scratch();
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'precious');
    // The names the old code used, and a few guesses more: none is the name used now.
    for (const name of [`.report.json.${process.pid}.tmp`, '.report.json.tmp', '.report.json.0.tmp']) symlinkSync(victim, join(dir, name));
    const out = new PendingOutput(join(dir, 'report.json'));
    out.commit('{"ok":true}\n', sink);
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    expect(readFileSync(join(dir, 'report.json'), 'utf8')).toBe('{"ok":true}\n');
    // Only the output and the planted links: the temporary file is gone.
    expect(readdirSync(dir).sort()).toEqual([`.report.json.${process.pid}.tmp`, '.report.json.0.tmp', '.report.json.tmp', 'report.json', 'victim.txt'].sort());
  });

  it('a link or a file planted at the very name it picks is refused (O_EXCL, O_NOFOLLOW), never written through or over', () => {
    const dir = scratch();
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'precious');
    const name = `.report.json.${'ab'.repeat(8)}.tmp`;
    for (const plant of [() => symlinkSync(victim, join(dir, name)), () => writeFileSync(join(dir, name), 'planted')]) {
      plant();
      vi.mocked(randomBytes).mockReturnValueOnce(Buffer.from('ab'.repeat(8), 'hex') as never);
      expect(() => new PendingOutput(join(dir, 'report.json'))).toThrow(InputError);
      expect(readFileSync(victim, 'utf8')).toBe('precious');
      expect(readdirSync(dir).sort()).toEqual([name, 'victim.txt']);
      execFileSync('rm', [join(dir, name)]);
    }
  });

  it('creates its temporary file exclusively with mode 0600 and an unpredictable name', () => {
    const dir = scratch();
    const a = new PendingOutput(join(dir, 'a.json'));
    const b = new PendingOutput(join(dir, 'b.json'));
    const tmps = readdirSync(dir).filter((f) => f.endsWith('.tmp'));
    expect(tmps).toHaveLength(2);
    for (const t of tmps) {
      expect(t).toMatch(/^\.[ab]\.json\.[0-9a-f]{16}\.tmp$/);
      expect(statSync(join(dir, t)).mode & 0o777).toBe(0o600);
    }
    a.abort();
    b.abort();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('truncates nothing before commit, and keeps an existing file when given up', () => {
    const dir = scratch();
    const target = join(dir, 'out.json');
    writeFileSync(target, 'old');
    const out = new PendingOutput(target);
    expect(readFileSync(target, 'utf8')).toBe('old');
    out.abort();
    expect(readFileSync(target, 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['out.json']);
  });

  it("gives a new file the umask's mode and keeps an existing file's mode", () => {
    const dir = scratch();
    const fresh = join(dir, 'new.json');
    new PendingOutput(fresh).commit('x', sink);
    const mask = process.umask();
    expect(statSync(fresh).mode & 0o777).toBe(0o666 & ~mask);
    const kept = join(dir, 'kept.json');
    writeFileSync(kept, 'old');
    chmodSync(kept, 0o640);
    new PendingOutput(kept).commit('new', sink);
    expect(statSync(kept).mode & 0o777).toBe(0o640);
    expect(readFileSync(kept, 'utf8')).toBe('new');
  });

  it('writes through a link at the target itself, which the user named', () => {
    const dir = scratch();
    const real = join(dir, 'real.json');
    writeFileSync(real, 'old');
    symlinkSync(real, join(dir, 'link.json'));
    new PendingOutput(join(dir, 'link.json')).commit('new', sink);
    expect(readFileSync(real, 'utf8')).toBe('new');
  });

  it('refuses a directory that does not exist with an InputError', () => {
    expect(() => new PendingOutput(join(scratch(), 'no', 'such', 'x.json'))).toThrow(InputError);
  });

  it('a path ending in / (or /. or /..) names a directory: refused when there is none, never written as a file', () => {
    const dir = scratch();
    for (const path of [`${join(dir, 'newdir')}/`, `${join(dir, 'newdir')}/.`, `${join(dir, 'newdir')}/..`, `${join(dir, 'a.json')}/`]) {
      expect(() => new PendingOutput(path), path).toThrow(/names a directory \(it ends in \/\.{0,2}\), and there is none there/);
    }
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('outputs that are not plain files', () => {
  it('a descriptor name (/proc/self/fd/N, as /dev/stdout under `>> log`) is appended to, never replaced', () => {
    const log = join(scratch(), 'log.txt');
    writeFileSync(log, 'precious\n');
    const fd = openSync(log, 'a');
    try {
      new PendingOutput(`/proc/self/fd/${fd}`).commit('report\n', sink);
    } finally {
      closeSync(fd);
    }
    expect(readFileSync(log, 'utf8')).toBe('precious\nreport\n');
    expect(readdirSync(join(log, '..'))).toEqual(['log.txt']);
  });

  it('a FIFO nothing reads is refused at once, not hung on at the end', () => {
    const fifo = join(scratch(), 'ff');
    execFileSync('mkfifo', [fifo]);
    expect(() => new PendingOutput(fifo)).toThrow(/is a FIFO that nothing is reading/);
  });

  it('a FIFO with a reader gets the whole output', () => {
    const fifo = join(scratch(), 'ff');
    execFileSync('mkfifo', [fifo]);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const text = `${'x'.repeat(1000)}\n`;
      new PendingOutput(fifo).commit(text, sink);
      const buf = Buffer.alloc(4096);
      expect(buf.toString('utf8', 0, readSync(reader, buf))).toBe(text);
    } finally {
      closeSync(reader);
    }
  });
});

describe('lab and a stop signal', () => {
  it('a signal that came while lab read its parts: it stops (Interrupted) and writes nothing', async () => {
    const dir = scratch();
    const stopped = new AbortController();
    stopped.abort();
    const io = { stdout: sink, stderr: sink, env: {} };
    await expect(command(['lab', '--out', join(dir, 'lab.html')], io, stopped.signal)).rejects.toThrow(Interrupted);
    expect(readdirSync(dir)).toEqual([]);
  });
});
