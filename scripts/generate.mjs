#!/usr/bin/env node
// Regenerates the files derived from the scenario's declaration (run with `npm run generate`):
// the compiled validator and the published JSON Schema (from src/scenario/schema.ts), and the
// key table docs/scenario-keys.md (from src/model/shape.ts, by src/scenario/key-docs.ts), and the
// command-line reference docs/command-line.md (from the commander program as shell completion
// reads it, by src/report/command-line-doc.ts, around the prose of src/report/command-line-doc.md).
// Tests fail when any of them is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { scenarioKeysDoc } from '../dist/scenario/key-docs.js';
import { scenarioSchema } from '../dist/scenario/schema.js';
import { validatorSource } from '../dist/scenario/validator-source.js';
import { agentKeysDoc } from '../dist/agent/key-docs.js';
import { program } from '../dist/cli/main.js';
import { completionSpec } from '../dist/completion/spec.js';
import { EXAMPLES } from '../dist/report/examples.js';
import { commandLineDoc } from '../dist/report/command-line-doc.js';

writeFileSync(new URL('../src/scenario/validate.generated.js', import.meta.url), validatorSource());
writeFileSync(new URL('../schema/scenario.schema.json', import.meta.url), `${JSON.stringify(scenarioSchema(), null, 2)}\n`);
writeFileSync(new URL('../docs/scenario-keys.md', import.meta.url), scenarioKeysDoc());
writeFileSync(new URL('../docs/agent-keys.md', import.meta.url), agentKeysDoc());

// The program as main builds it, never run: its streams go nowhere.
const cli = program({ io: { stdout: new PassThrough(), stderr: new PassThrough(), env: {} }, signal: new AbortController().signal, setCode: () => {} });
const template = readFileSync(new URL('../src/report/command-line-doc.md', import.meta.url), 'utf8');
writeFileSync(new URL('../docs/command-line.md', import.meta.url), commandLineDoc(await completionSpec(cli), EXAMPLES, template));
