#!/usr/bin/env node
// Regenerates the files derived from src/scenario/schema.ts (run with `npm run generate`):
// the compiled validator and the published JSON Schema. Tests fail when either is stale.
import { writeFileSync } from 'node:fs';
import { SCENARIO_SCHEMA } from '../dist/scenario/schema.js';
import { validatorSource } from '../dist/scenario/validator-source.js';

writeFileSync(new URL('../src/scenario/validate.generated.js', import.meta.url), validatorSource());
writeFileSync(new URL('../schema/scenario.schema.json', import.meta.url), `${JSON.stringify(SCENARIO_SCHEMA, null, 2)}\n`);
