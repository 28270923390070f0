/**
 * --json beside another --format is refused by every command that has both (run, sweep, check,
 * explain, merge), not one of them silently ignored; --json with --format json is the same ask.
 */
import { describe, expect, it } from 'vitest';
import { Given } from '../src/cli/settings/given.js';
import { formatAsked, runFormat, runFormatOf, sweepFormat, sweepFormatOf } from '../src/cli/settings/output.js';
import { InputError } from '../src/scenario/errors.js';

const refusal = (format: string) => `--json: cannot be combined with --format ${format}. Give --json alone for the JSON report, or --format ${format} alone.`;

describe('--json and --format', () => {
  it('ask one format: --json is --format json, neither is the command\'s default', () => {
    expect([formatAsked(true, undefined), formatAsked(true, 'json'), formatAsked(false, 'csv'), formatAsked(false, undefined)]).toEqual(['json', 'json', 'csv', undefined]);
    expect(runFormat({ json: false, format: undefined })).toBe('table');
    expect(sweepFormat({ json: true, format: undefined, svg: false })).toBe('json');
  });

  it('refuse another format beside --json, naming both and the fix', () => {
    expect(() => formatAsked(true, 'table')).toThrow(InputError);
    expect(() => runFormat({ json: true, format: Given.parse('csv', runFormatOf) })).toThrow(refusal('csv'));
    expect(() => sweepFormat({ json: true, format: Given.parse('html', sweepFormatOf), svg: false })).toThrow(refusal('html'));
  });
});
