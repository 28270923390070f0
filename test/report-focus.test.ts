/**
 * Where `report` centres its action timeline (issue 21, item 12): --at when given; without it,
 * the start of the first incident (the earliest `from`, whatever the list's order), said in the
 * timeline's note; a scenario without incidents starts at the run's first chunk.
 */
import { describe, expect, it } from 'vitest';
import { withPrimaries } from '../src/model/clock.js';
import { focusWords, timelineFocus } from '../src/report/time-focus.js';
import { parseRunnable, SLOWDOWN_YAML } from './helpers.js';

const SEED = '1';
const scenario = (yaml: string) => withPrimaries(parseRunnable(yaml), SEED);
/** The lab's slowdown with a second, earlier incident listed after it. */
const TWO_INCIDENTS = `${SLOWDOWN_YAML.replace('alerts:', '  - {name: blip, from: 150s, to: 3m, network: {reply_loss: 0.1}}\nalerts:')}`;

describe('the action timeline\'s centre', () => {
  it('without --at, is the first incident\'s start, in the chunk that spans it, and the note says so', () => {
    const focus = timelineFocus(scenario(SLOWDOWN_YAML), SEED, undefined);
    expect(focus?.at).toBe(240_000);
    expect(focus?.incident).toBe('slowdown');
    const plan = focus?.plan;
    expect(plan && plan.offset <= 240_000 && 240_000 <= plan.offset + plan.span).toBe(true);
    expect(focus && focusWords(focus)).toBe(', when the first incident, slowdown, starts (the centre without --at; --at TIME moves it)');
  });

  it('is the earliest from, not the first listed', () => {
    const focus = timelineFocus(scenario(TWO_INCIDENTS), SEED, undefined);
    expect([focus?.at, focus?.incident]).toEqual([150_000, 'blip']);
  });

  it('is --at when given, with no words added', () => {
    const focus = timelineFocus(scenario(SLOWDOWN_YAML), SEED, '7m');
    expect(focus?.at).toBe(420_000);
    expect(focus?.incident).toBeUndefined();
    expect(focus && focusWords(focus)).toBe('');
  });

  it('is none without incidents or --at: the run\'s first chunk', () => {
    expect(timelineFocus(scenario('load: {duration: 10m}\n'), SEED, undefined)).toBeUndefined();
  });
});
