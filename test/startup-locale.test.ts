/**
 * Loading the command line and run's code formats nothing by locale: the first toLocaleString (or
 * Intl formatter) starts ICU, 10 to 20 ms here, which every run paid at its start while a module
 * built a message's words as it loaded (engine/runaway.ts; docs/performance.md). Messages format
 * their numbers when they are made.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

describe('start-up', () => {
  afterEach(() => vi.restoreAllMocks());

  it('loads main and run without formatting by locale', async () => {
    vi.resetModules();
    const calls = [
      vi.spyOn(Number.prototype, 'toLocaleString'),
      vi.spyOn(Date.prototype, 'toLocaleString'),
      vi.spyOn(String.prototype, 'localeCompare'),
      vi.spyOn(Intl, 'NumberFormat'),
      vi.spyOn(Intl, 'DateTimeFormat'),
    ];
    await import('../src/cli/main.js');
    await import('../src/cli/run.js');
    // Imported afresh: the engine's refusal is among what they load.
    const { RunawayWork } = await import('../src/engine/runaway.js');
    for (const spy of calls) expect(spy).not.toHaveBeenCalled();
    // And the words are still there when a refusal is made.
    expect(new RunawayWork(20_000_000, 'chunk').message).toContain('more than 20,000,000 attempts and deliveries in one chunk of its actions (at most 16,384)');
  });
});
