/**
 * Shell completion (issue 14, item 12c): `idem-sim completion bash|zsh|fish` prints a script
 * read from the commander program, so every subcommand's every option is in it. The scripts
 * are checked by their shells (`bash -n`, `zsh -n`, `fish -n`), and bash's and fish's answers
 * are asked for real. zsh and fish are skipped where they are not installed, except under CI=true
 * (.ci/run installs them), where a missing shell fails instead of skipping.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { completionSpec } from '../src/completion/spec.js';
import { SHELLS, type Shell } from '../src/completion/shells.js';
import { main, program } from '../src/cli/main.js';

const has = (shell: string) => spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;
/** A test of `shell`: skipped where it is missing, except in CI, which must run every test. */
const withShell = (shell: 'zsh' | 'fish') => (process.env['CI'] === 'true' ? it : it.skipIf(!has(shell)));
/** Fails, naming the fix, where `shell` is missing (only reached in CI, as `withShell` runs it). */
const needShell = (shell: 'zsh' | 'fish') => expect(has(shell), `${shell} is not installed: apt-get install -y ${shell} (.ci/run does)`).toBe(true);
const dir = mkdtempSync(join(tmpdir(), 'idem-sim-completion-'));

/** What `idem-sim completion SHELL` prints, in-process. */
async function script(shell: Shell): Promise<string> {
  const stdout = new PassThrough();
  const chunks: Buffer[] = [];
  stdout.on('data', (c: Buffer) => chunks.push(c));
  const code = await main(['node', 'idem-sim', 'completion', shell], { stdout, stderr: new PassThrough(), env: {} });
  expect(code).toBe(0);
  return Buffer.concat(chunks).toString('utf8');
}

/** The file `script(shell)` written, for the shell to read. */
async function scriptFile(shell: Shell): Promise<string> {
  const file = join(dir, `idem-sim.${shell}`);
  writeFileSync(file, await script(shell));
  return file;
}

/** The program as main builds it, to read its commands and options as a person would. */
const cli: Command = program({ io: { stdout: new PassThrough(), stderr: new PassThrough(), env: {} }, signal: new AbortController().signal, setCode: () => {} });
const subcommands = cli.commands.map((c) => ({ name: c.name(), options: [...c.options.map((o) => o.long as string), '--help'] }));

/** The part of a script about one subcommand: its case branch (bash, zsh) or its lines (fish). */
function section(text: string, shell: Shell, name: string): string {
  if (shell === 'fish') return text.split('\n').filter((l) => l.includes(`'__fish_seen_subcommand_from ${name}'`)).join('\n');
  const indent = shell === 'bash' ? '    ' : '        ';
  const start = text.indexOf(`\n${indent}${name})\n`);
  expect(start, `${shell}: no branch for ${name}`).toBeGreaterThan(0);
  const end = text.indexOf(`\n${indent}  ;;`, start);
  return text.slice(start, end);
}

describe('the completion scripts', () => {
  it('come from the program: every subcommand, each of its options', async () => {
    expect(subcommands.map((c) => c.name)).toContain('completion');
    for (const shell of SHELLS) {
      const text = await script(shell);
      for (const { name, options } of subcommands) {
        const part = section(text, shell, name);
        for (const option of options) {
          const spelled = shell === 'fish' ? `-l ${option.slice(2)} ` : option;
          expect(part, `${shell}: ${name} ${option}`).toContain(spelled);
        }
      }
    }
  });

  it('offer the fixed values of options from the registries, and the shells of completion', async () => {
    const spec = await completionSpec(cli);
    const option = (command: string, long: string) => spec.commands.find((c) => c.name === command)?.options.find((o) => o.long === long)?.value;
    expect(option('run', '--format')).toEqual({ kind: 'choices', values: ['table', 'json', 'csv'] });
    expect(option('sweep', '--format')).toEqual({ kind: 'choices', values: ['table', 'csv', 'json', 'html'] });
    expect(option('merge', '--format')).toEqual(option('sweep', '--format'));
    expect(option('alerts', '--format')).toEqual({ kind: 'choices', values: ['table', 'prometheus', 'promtool-test'] });
    expect(option('alerts', '--rules')).toEqual({ kind: 'file' });
    expect(option('fit', '--format')).toEqual({ kind: 'choices', values: ['prometheus', 'otlp', 'durations', 'csv'] });
    expect(option('fit', '--form')).toEqual({ kind: 'choices', values: ['histogram', 'lognormal', 'mixture', 'percentiles'] });
    expect(option('fit', '--unit')).toEqual({ kind: 'choices', values: ['s', 'ms', 'us', 'ns'] });
    expect(option('fit', '--into')).toEqual({ kind: 'scenario' });
    expect(spec.commands.find((c) => c.name === 'fit')?.arguments[0]?.value).toEqual({ kind: 'file' });
    expect(option('check', '--format')).toEqual({ kind: 'choices', values: ['table', 'json', 'github'] });
    expect(option('check', '--summary')).toEqual({ kind: 'file' });
    expect(option('run', '--precision-metric')).toMatchObject({ kind: 'choices', values: expect.arrayContaining(['duplicates_per_1000', 'lost_per_1000']) });
    expect(option('sweep', '--metric')).toMatchObject({ kind: 'choices', values: expect.arrayContaining(['key_store_mb', 'call_latency_ms.p95']) });
    expect(option('run', '--out')).toEqual({ kind: 'file' });
    expect(option('run', '--actions')).toEqual({ kind: 'none' });
    expect(spec.commands.find((c) => c.name === 'completion')?.arguments[0]?.value).toEqual({ kind: 'choices', values: [...SHELLS] });
    expect(spec.commands.find((c) => c.name === 'run')?.options.find((o) => o.long === '--set')?.repeatable).toBe(true);
  });

  it('bash: bash -n accepts it', async () => {
    const r = spawnSync('bash', ['-n', await scriptFile('bash')], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
  });

  withShell('zsh')('zsh: zsh -n accepts it, and sourced after compinit it is the completion of idem-sim (skipped where zsh is not installed, unless CI=true)', async () => {
    needShell('zsh');
    const file = await scriptFile('zsh');
    const syntax = spawnSync('zsh', ['-n', file], { encoding: 'utf8' });
    expect(syntax.status, syntax.stderr).toBe(0);
    const r = spawnSync('zsh', ['-f', '-c', `autoload -U compinit; compinit -u -d ${join(dir, 'zcompdump')}; source ${file}; print -r -- $_comps[idem-sim]`], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('_idem-sim');
  });

  withShell('fish')('fish: fish -n accepts it (skipped where fish is not installed, unless CI=true)', async () => {
    needShell('fish');
    const r = spawnSync('fish', ['-n', await scriptFile('fish')], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
  });
});

describe('what the shells offer', () => {
  const work = join(dir, 'work');
  mkdirSync(join(work, 'sub'), { recursive: true });
  for (const f of ['a.yaml', 'b.json', 'notes.txt', 'my scenario.yml']) writeFileSync(join(work, f), '');

  /** bash's completions of the last word of `words`, as COMPREPLY holds them. */
  async function bash(...words: string[]): Promise<string[]> {
    const file = await scriptFile('bash');
    const program = `source ${file}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _idem_sim; printf '%s\\n' "\${COMPREPLY[@]}"`;
    const r = spawnSync('bash', ['-c', program], { cwd: work, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    return r.stdout.split('\n').filter(Boolean).sort();
  }

  it('bash: subcommands, options, their values (also after =), scenario files', async () => {
    expect(await bash('idem-sim', 'r')).toEqual(['reconcile', 'report', 'run']);
    expect(await bash('idem-sim', 'run', '--fo')).toEqual(['--format']);
    expect(await bash('idem-sim', 'run', '--format', '')).toEqual(['csv', 'json', 'table']);
    expect(await bash('idem-sim', 'run', '--format', '=', 'j')).toEqual(['json']);
    expect(await bash('idem-sim', 'sweep', 'a.yaml', '--format', '=')).toEqual(['csv', 'html', 'json', 'table']);
    expect(await bash('idem-sim', 'run', '--actions', '')).toEqual([]);
    expect(await bash('idem-sim', 'run', 'a.yaml', '')).toEqual(['a.yaml', 'b.json', 'my scenario.yml', 'sub']);
    expect(await bash('idem-sim', 'run', '--out', '')).toEqual(['a.yaml', 'b.json', 'my scenario.yml', 'notes.txt', 'sub']);
    expect(await bash('idem-sim', 'completion', '')).toEqual(['bash', 'fish', 'zsh']);
    expect(await bash('idem-sim', 'help', 'me')).toEqual(['merge']);
  });

  withShell('fish')('fish: the same, through complete -C (skipped where fish is not installed, unless CI=true)', async () => {
    needShell('fish');
    const file = await scriptFile('fish');
    const fish = (line: string): string[] => {
      const r = spawnSync('fish', ['-N', '-c', `source ${file}; complete -C '${line}'`], { cwd: work, encoding: 'utf8' });
      expect(r.stderr).toBe('');
      return r.stdout.split('\n').filter(Boolean).map((l) => l.split('\t')[0] as string).sort();
    };
    expect(fish('idem-sim r')).toEqual(['reconcile', 'report', 'run']);
    expect(fish('idem-sim run --format ')).toEqual(['csv', 'json', 'table']);
    expect(fish('idem-sim completion ')).toEqual(['bash', 'fish', 'zsh']);
    expect(fish('idem-sim run a.yaml ')).toEqual(expect.arrayContaining(['a.yaml', 'sub/']));
  });
});
