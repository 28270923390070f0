/** Sweeps in-process: values and grids. Through the binary (CSV, tables, shards, bad input): sweep.e2e.test.ts. */
import { describe, expect, it } from 'vitest';
import { gridPoints, gridSize } from '../src/sweeps/grid.js';
import { parseValues, ValuesError } from '../src/sweeps/values.js';

describe('values', () => {
  it('lists, as written', () => {
    expect(parseValues('5m,1h,24h')).toEqual(['5m', '1h', '24h']);
    expect(parseValues('none, call ,intent')).toEqual(['none', 'call', 'intent']);
    expect(parseValues([1, 'x', true])).toEqual(['1', 'x', 'true']);
  });

  it('evenly spaced ranges, both ends included; durations in ms', () => {
    expect(parseValues('200ms..2s:10')).toEqual(['200ms', '400ms', '600ms', '800ms', '1000ms', '1200ms', '1400ms', '1600ms', '1800ms', '2000ms']);
    expect(parseValues('0.1..0.3:3')).toEqual(['0.1', '0.2', '0.3']);
    expect(parseValues('5..1:3')).toEqual(['5', '3', '1']);
  });

  it('a range of a duration needs its unit (0..0 aside): the fix names both readings', () => {
    expect(() => parseValues('200..2000:3', true)).toThrow(/the range 200\.\.2000:3 has no unit, but the key is a duration/);
    const fix = (() => { try { parseValues('log:1..10:3', true); } catch (e) { return (e as { fix?: string }).fix; } return undefined; })();
    expect(fix).toBe('Write log:1ms..10ms:3 or log:1s..10s:3, whichever you mean.');
    expect(parseValues('200ms..2s:2', true)).toEqual(['200ms', '2000ms']);
    expect(() => parseValues('500ms..2:3', true)).toThrow(/has an end without its unit/);
    expect(parseValues('0..2s:2', true)).toEqual(['0ms', '2000ms']);
    expect(parseValues('0..0.5:2', false)).toEqual(['0', '0.5']);
  });

  it('log ranges', () => {
    expect(parseValues('log:100ms..10s:3')).toEqual(['100ms', '1000ms', '10000ms']);
    expect(parseValues('log:1..1000:4')).toEqual(['1', '10', '100', '1000']);
  });

  it.each([
    ['1s..2s', 'does not say how many points'],
    ['1s..2s:1', 'empty or a single value'],
    ['log:0..10:3', 'above 0'],
    ['a..b:3', 'not a range'],
    ['5m,,1h', 'empty value'],
  ])('rejects %s', (spec, problem) => {
    expect(() => parseValues(spec)).toThrow(ValuesError);
    expect(() => parseValues(spec)).toThrow(problem);
  });
});

describe('grid', () => {
  it('every combination, the first key outermost', () => {
    const axes = [{ path: 'a', values: ['1', '2'], option: '' }, { path: 'b', values: ['x', 'y', 'z'], option: '' }];
    expect(gridSize(axes)).toBe(6);
    expect(gridPoints(axes).map((p) => p.values.join(''))).toEqual(['1x', '1y', '1z', '2x', '2y', '2z']);
  });
});
