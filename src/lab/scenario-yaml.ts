/**
 * A lab session as a scenario file: the file's own text (its comments and `expect:` block kept)
 * with each override written in at its key and the seed as `seed:`, so `idem-sim check` on the
 * download runs exactly what the page ran.
 */
import { readValue, yaml } from '../scenario/document.js';
import { DEFAULT_SEED } from '../scenario/seed.js';
import type { ScenarioInput } from './protocol.js';

export function scenarioYaml(input: ScenarioInput & { name: string; command: string }, fileSeed: string | undefined): string {
  const doc = yaml().parseDocument(input.text);
  for (const o of input.overrides) {
    // As `--set` reads its value: YAML when it parses, the text itself otherwise.
    const read = readValue(o.text, { source: o.option, prefix: o.path });
    doc.setIn(o.path, read.ok ? read.value : o.text);
  }
  if (input.seed !== (fileSeed ?? DEFAULT_SEED)) doc.set('seed', input.seed);
  const head = [
    `# Written by idem-sim lab from ${input.name}: the page's settings, which run as`,
    `#   ${input.command}`,
    '# Check it with: idem-sim check scenario.yaml',
  ];
  const body = doc.contents === null ? '' : doc.toString();
  return `${head.join('\n')}\n${body}`;
}
