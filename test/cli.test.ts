/** What the README and docs/ show must stay true; the checks that need the built binary are in cli.e2e.test.ts. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

describe('README and docs/', () => {
  it('every YAML block in them parses (workflow and job snippets are copied as they are)', async () => {
    const { parseAllDocuments } = await import('yaml');
    const files = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
    const blocks = files.flatMap((file) => [...readFileSync(join(ROOT, file), 'utf8').matchAll(/^( *)```yaml\n([\s\S]*?)^\1```/gm)]
      .map((m) => ({ file, block: (m[2] as string).replace(new RegExp(`^${m[1]}`, 'gm'), '') })));
    // The CI gate's GitHub Actions job (docs/ci-gate.md) and the sharded jobs (docs/sharding.md) among them.
    expect(blocks.filter((b) => b.file === 'docs/ci-gate.md').length).toBeGreaterThanOrEqual(2);
    expect(blocks.filter((b) => b.file === 'docs/sharding.md').length).toBeGreaterThanOrEqual(2);
    for (const { file, block } of blocks) {
      for (const doc of parseAllDocuments(block)) expect(doc.errors.map((e) => e.message), `${file}:\n${block}`).toEqual([]);
    }
  });
});

describe('commander\'s errors, as one paragraph (issue 14, item 12d)', () => {
  it('the "Did you mean" stays on the line, and the subcommand is named', async () => {
    const { usageError } = await import('../src/cli/usage-error.js');
    expect(usageError("error: unknown option '--action'\n(Did you mean --actions?)\n", 'run'))
      .toBe("idem-sim: error: unknown option '--action' for run. Did you mean --actions? Run idem-sim run --help for usage.\n");
    expect(usageError("error: unknown option '--f'\n(Did you mean one of --format, --json?)\n", 'run'))
      .toBe("idem-sim: error: unknown option '--f' for run. Did you mean one of --format, --json? Run idem-sim run --help for usage.\n");
    expect(usageError("error: unknown command 'runn'\n(Did you mean run?)\n"))
      .toBe("idem-sim: error: unknown command 'runn'. Did you mean run? Run idem-sim --help for usage.\n");
    expect(usageError("error: missing required argument 'scenario'\n", 'sweep'))
      .toBe("idem-sim: error: missing required argument 'scenario' for sweep. Run idem-sim sweep --help for usage.\n");
    expect(usageError("error: too many arguments for 'schema'. Expected 0 arguments but got 1.\n", 'schema'))
      .toBe("idem-sim: error: too many arguments for 'schema'. Expected 0 arguments but got 1. Run idem-sim schema --help for usage.\n");
  });

  it('control codes in the refused argument are shown escaped, and only the hint is joined', async () => {
    const { usageError } = await import('../src/cli/usage-error.js');
    const text = usageError("error: unknown option '--a\u001b[31m\nb'\n", 'run');
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
    expect(text.split('\n')).toHaveLength(2);
  });
});

describe('the examples that end each subcommand\'s --help (issue 14, item 12b)', () => {
  it('two or three for every subcommand, on bundled scenario files that exist', async () => {
    const { EXAMPLES, exampleLine } = await import('../src/report/examples.js');
    const { program } = await import('../src/cli/main.js');
    const { PassThrough } = await import('node:stream');
    const { existsSync } = await import('node:fs');
    const names = program({ io: { stdout: new PassThrough(), stderr: new PassThrough(), env: {} }, signal: new AbortController().signal, setCode: () => {} })
      .commands.map((c) => c.name());
    expect(Object.keys(EXAMPLES).sort()).toEqual([...names].sort());
    for (const name of names) {
      const examples = EXAMPLES[name] ?? [];
      expect(examples.length, name).toBeGreaterThanOrEqual(2);
      expect(examples.length, name).toBeLessThanOrEqual(3);
      for (const e of examples) {
        expect(e.line.startsWith('idem-sim ')).toBe(true);
        for (const file of exampleLine(e, ROOT).match(/scenarios\/[\w/-]+\.yaml/g) ?? []) expect(existsSync(join(ROOT, file)), file).toBe(true);
      }
    }
  });

  it('name the bundled folder as a command typed there would: relative below, absolute elsewhere', async () => {
    const { scenariosFolder } = await import('../src/report/examples.js');
    expect(scenariosFolder(ROOT)).toBe('scenarios');
    expect(scenariosFolder(join(ROOT, 'scenarios'))).toBe('.');
    expect(scenariosFolder('/')).toBe(join(ROOT, 'scenarios').slice(1)); // below /, so relative
    expect(scenariosFolder(join(ROOT, 'docs'))).toBe(join(ROOT, 'scenarios'));
  });
});
