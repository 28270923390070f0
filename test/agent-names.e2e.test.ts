/**
 * An agent file named with terminal escapes or a workflow command, through the real binary: on a
 * terminal, no escape of the name's reaches it (the title stays), and in a GitHub job no line of
 * `run`, `check --format github` or `sweep` is a command the name wrote (docs/security-and-limits.md).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli, HAS_SCRIPT, onTerminal, removeScratch, scratch } from './helpers.js';

const AGENT = 'agent: {calls_per_s: 10}\ndefaults: {actions: 1000}\ntools:\n  - {name: a, share: 0.5}\n  - {name: b, share: 0.5}\nexpect:\n  agent.duplicates_per_day: ">= 0"\n';
afterEach(removeScratch);

function agentFile(name: string): { dir: string; file: string } {
  const dir = scratch();
  writeFileSync(join(dir, name), AGENT);
  return { dir, file: name };
}

describe('an agent file\'s hostile name', () => {
  it.skipIf(!HAS_SCRIPT)('sets no terminal title: run and check on a terminal print the name rewritten', () => {
    const { dir, file } = agentFile('x\u001b]0;pwn\u0007.yaml');
    for (const command of ['run', 'check']) {
      const r = onTerminal([command, file], dir);
      expect(r.status, r.output).toBe(0);
      expect(r.output).not.toMatch(/\u001b\]|\u0007/);
      expect(r.output).toContain('x__0_pwn_');
    }
  });

  it('writes no workflow command of its own: run, check --format github and sweep', () => {
    const { dir, file } = agentFile('a\n::error file=README.md,line=1::forged\n.yaml');
    for (const args of [['run', file], ['check', file, '--format', 'github'], ['sweep', file, '--vary', 'agent.calls_per_s=5,10']]) {
      const r = cli(args, { cwd: dir, env: { GITHUB_STEP_SUMMARY: '' } });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout, args[0]).not.toMatch(/^::error file=README\.md/m);
      expect(r.stdout, args[0]).toContain('a___error_file_README_md_line_1__forged_');
      // Its warning names the file printable, and says what to write.
      expect(r.stderr).toContain('the file\'s name, "a\\u000a::error file=README.md,line=1::forged\\u000a", is not a name');
      expect(r.stderr).not.toMatch(/^::/m);
    }
  });
});
