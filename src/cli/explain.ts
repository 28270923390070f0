/**
 * `idem-sim explain [SCENARIO]`: every key a run of the scenario takes (each tool's, for an agent
 * file), its value, and where it came from (scenario/provenance.ts), read with the options that
 * change the keys as run reads them (--set, --actions, --allow-outside).
 */
import { renderExplainJson, renderExplainTable, type ExplainedScenario } from '../report/explain.js';
import type { ExplainFormat } from '../report/explain-formats.js';
import type { ParsedScenario } from '../scenario/parse.js';
import { explainKeys, labDefaultsInherited } from '../scenario/provenance.js';
import { scenarioName } from '../scenario/names.js';
import { toolVersion, type Io } from '../io/streams.js';
import { agentReader } from './shared/agent-load.js';
import { scenarioReader } from './shared/load.js';
import { withOutput } from '../io/output.js';
import type { Given } from './settings/given.js';
import { formatAsked, outputSettings, type OutputOptions, type OutputSettings } from './settings/output.js';
import { scenarioSettings, type ScenarioOptions, type ScenarioSettings } from './settings/scenario.js';

/** `explain`'s command line as commander parsed it (explain-declare.ts declares it). */
export interface ExplainOptions extends ScenarioOptions, OutputOptions {
  format?: Given<ExplainFormat>;
}

export interface ExplainSettings {
  scenario: ScenarioSettings;
  output: OutputSettings<Given<ExplainFormat>>;
}

export function explainSettings(opts: ExplainOptions): ExplainSettings {
  return { scenario: scenarioSettings(opts), output: outputSettings(opts) };
}

const explained = (name: string, parsed: ParsedScenario): ExplainedScenario => ({ name, keys: explainKeys(parsed), labDefaults: labDefaultsInherited(parsed) });

export async function explainCommand(file: string | null, s: ExplainSettings, io: Io): Promise<number> {
  return withOutput(io, s.output.out, file === null ? [] : [file], (out) => {
    const format: ExplainFormat = formatAsked(s.output.json, s.output.format?.value) ?? 'table';
    // Read as run reads it: the settings of no effect are warned of on stderr.
    const agent = agentReader(s.scenario, io)(file);
    const report = agent
      ? { file, agent: agent.name, scenarios: agent.tools.map((t) => explained(t.name, t.parsed)) }
      : { file, scenarios: [explained(scenarioName(file), scenarioReader(s.scenario, io)(file))] };
    out.write(format === 'json' ? renderExplainJson(report, toolVersion()) : renderExplainTable(report, out.style()));
    return 0;
  });
}
