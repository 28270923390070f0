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

  it('accepts an empty scenario: the parser returns the built-in defaults without the validator or yaml, and relies on this', async () => {
    const { validate } = await import('../src/scenario/validate.generated.js');
    expect(validate({})).toBe(true);
  });

  it('the shortcut for an empty file gives what the full path gives for a file with nothing but a comment', async () => {
    const { parseScenario } = await import('../src/scenario/parse.js');
    const data = ({ locate, ...rest }: ReturnType<typeof parseScenario>) => ({ ...rest, located: locate?.(['client', 'timeout']) });
    expect(data(parseScenario('', 'a.yaml'))).toEqual(data(parseScenario('# nothing here\n', 'a.yaml')));
  });
});
