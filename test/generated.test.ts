/** Files generated from the source must be current. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validatorSource } from '../src/scenario/validator-source.js';
import { ROOT } from './helpers.js';

describe('generated files', () => {
  it('src/scenario/validate.generated.js matches the schema (npm run generate)', () => {
    expect(readFileSync(join(ROOT, 'src/scenario/validate.generated.js'), 'utf8')).toBe(validatorSource());
  });

  it('accepts an empty scenario, which the parser therefore does not validate (the built-in defaults start faster)', async () => {
    const { validate } = await import('../src/scenario/validate.generated.js');
    expect(validate({})).toBe(true);
  });
});
