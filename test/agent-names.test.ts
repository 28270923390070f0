/**
 * An agent's name, wherever it came from, is a name (agent/names.ts): one the file writes is
 * checked, and its file's name, which it takes when it writes none, is rewritten to that form
 * and warned of. So a file named with terminal escapes, a workflow command or YAML of its own
 * reaches no table, log or composed scenario as it is (docs/security-and-limits.md).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { agentName, AGENT_NAME, fitName } from '../src/agent/names.js';
import { parseAgent } from '../src/agent/parse.js';
import { labSettings, startScenario } from '../src/cli/lab.js';
import { warningTexts } from '../src/cli/shared/load.js';
import { parseScenario } from '../src/scenario/parse.js';
import { hasUnprintable } from '../src/scenario/printable.js';
import { captured } from './command-line.js';

const AGENT = 'agent: {calls_per_s: 10}\ndefaults: {actions: 2000}\ntools:\n  - {name: a, share: 0.5}\n  - {name: b, share: 0.5}\n';
const ESCAPES = 'x\u001b]0;pwn\u0007';
const WORKFLOW = 'a\n::error file=README.md,line=1::forged\n';
const YAML_KEY = 'a\nexpect: {duplicates_per_1000: "< 0"}\n#';

const dir = mkdtempSync(join(tmpdir(), 'idem-sim-agent-names-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The agent file `name`.yaml, holding `text`. */
function agentFile(name: string, text = AGENT): string {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, text);
  return file;
}

const cli = captured;

describe('the agent\'s name from its file\'s name', () => {
  it('is the file\'s name when that is a name, without a word', () => {
    const a = parseAgent(AGENT, 'support-agent.yaml', 'support-agent');
    expect(a.name).toBe('support-agent');
    expect(a.warnings).toEqual([]);
  });

  it('is rewritten to a name\'s form otherwise, and warned of with the name to write', () => {
    for (const [file, name] of [[ESCAPES, 'x__0_pwn_'], [WORKFLOW, 'a___error_file_README_md_line_1__forged_'], ['support.agent', 'support_agent'],
      ['-rf', '_-rf'], ['constructor', 'constructor_agent'], ['__proto__', '__proto___agent'], ['', '_'], ['ü'.repeat(100), 'u'.repeat(64)],
      // An accent is left out (é decomposed is e and a combining mark), written precomposed or not; a letter of another script has no form to keep.
      ['é', 'e'], ['café-crème', 'cafe-creme'], ['cafe\u0301', 'cafe'], ['Ærø Straße', '_r__Stra_e'], ['日本', '__']] as const) {
      const a = parseAgent(AGENT, `${file}.yaml`, file);
      expect(a.name, JSON.stringify(file)).toBe(name);
      expect(AGENT_NAME.pattern.test(a.name)).toBe(true);
      const [warning] = warningTexts(a.warnings);
      expect(warning).toContain(`key agent.name: is left out, so the agent is named after its file`);
      expect(warning).toContain(`Give the agent its name: \`agent: {name: ${name}}\``);
      expect(hasUnprintable(warning as string)).toBe(false);
    }
  });

  it('gives way to agent.name, whatever the file is called', () => {
    const a = parseAgent(AGENT.replace('agent: {', 'agent: {name: support, '), `${ESCAPES}.yaml`, ESCAPES);
    expect(a.name).toBe('support');
    expect(a.warnings).toEqual([]);
  });

  it('is one rule with the names inventory rewrites', () => {
    expect(agentName(undefined, ESCAPES)).toEqual({ name: fitName(ESCAPES, AGENT_NAME), rewritten: true });
    expect(agentName('written', ESCAPES)).toEqual({ name: 'written', rewritten: false });
  });
});

describe('a hostile agent file name reaches no output as it is', () => {
  it('run: the table\'s heading and column', async () => {
    const r = await cli(['run', agentFile(ESCAPES)]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Agent x__0_pwn_\n');
    expect(r.stdout).not.toContain('\u001b');
    expect(r.stderr).toContain('x\\u001b]0;pwn\\u0007');
    expect(r.stderr).not.toContain('\u001b');
  });

  it('run and check --format github: no line of the output is a workflow command the name wrote', async () => {
    const file = agentFile(WORKFLOW, `${AGENT}expect:\n  agent.duplicates_per_day: ">= 0"\n`);
    for (const args of [['run', file], ['run', file, '--format', 'csv'], ['check', file], ['check', file, '--format', 'github']]) {
      const r = await cli(args);
      expect(r.status, args.join(' ')).toBe(0);
      expect(r.stdout, args.join(' ')).not.toMatch(/^::error file=README\.md/m);
      expect(r.stdout, args.join(' ')).toContain('a___error_file_README_md_line_1__forged_');
    }
  });

  it('check --format github: the warning of the rewritten name is titled as such, at the agent: line, not as a setting with no effect', async () => {
    const r = await cli(['check', agentFile('é', `${AGENT}expect:\n  agent.duplicates_per_day: ">= 0"\n`), '--format', 'github']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^::warning file=\S+é\.yaml,line=1,title=idem-sim check%3A a name rewritten::\S+é\.yaml:1:1, key agent\.name: is left out, so the agent is named after its file; the file's name, "é", is not a name [^\n]*, so the outputs call the agent e\./m);
    expect(r.stdout).not.toContain('a setting with no effect');
  });

  it('sweep: the footer', async () => {
    const r = await cli(['sweep', agentFile(WORKFLOW), '--vary', 'agent.calls_per_s=5,10', '--actions', '1000']);
    expect(r.status).toBe(0);
    expect(r.stdout).not.toMatch(/^::error/m);
    expect(r.stdout).toContain('tools of agent a___error_file_README_md_line_1__forged_,');
  });

  it('lab --tool: the scenario the page downloads gains no key of the name\'s', async () => {
    const start = await startScenario(agentFile(YAML_KEY), labSettings({ tool: 'a' }), { stdout: new PassThrough(), stderr: new PassThrough(), env: {} });
    const scenario = parseScenario(start.text, 'scenario.yaml');
    expect(scenario.expectations).toEqual([]);
    expect(start.text).not.toMatch(/^expect:/m);
    expect(start.tool?.agent).toBe('a_expect___duplicates_per_1000_____0____');
  });
});
