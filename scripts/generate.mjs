#!/usr/bin/env node
// Regenerates the files derived from the scenario's declaration (run with `npm run generate`):
// the compiled validator and the published JSON Schema (from src/scenario/schema.ts), and the
// key table docs/scenario-keys.md (from src/model/shape.ts, by src/scenario/key-docs.ts). Tests
// fail when any of them is stale.
import { writeFileSync } from 'node:fs';
import { scenarioKeysDoc } from '../dist/scenario/key-docs.js';
import { scenarioSchema } from '../dist/scenario/schema.js';
import { validatorSource } from '../dist/scenario/validator-source.js';
import { agentKeysDoc } from '../dist/agent/key-docs.js';

writeFileSync(new URL('../src/scenario/validate.generated.js', import.meta.url), validatorSource());
writeFileSync(new URL('../schema/scenario.schema.json', import.meta.url), `${JSON.stringify(scenarioSchema(), null, 2)}\n`);
writeFileSync(new URL('../docs/scenario-keys.md', import.meta.url), scenarioKeysDoc());
writeFileSync(new URL('../docs/agent-keys.md', import.meta.url), agentKeysDoc());
