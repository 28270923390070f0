/** The report's story panel, as generated (its behaviour in a browser: report.browser.test.ts). */
import { describe, expect, it } from 'vitest';
import { panelHeight, STORY_SCRIPT, STORY_STYLE, storyPanel } from '../src/report/story-panel.js';

describe('the story panel', () => {
  it('is as tall as the longest story, counting the lines a long one wraps into, up to 60% of the window', () => {
    const sixteen = Array.from({ length: 16 }, (_, i) => `line ${i}`).join('\n');
    expect(panelHeight(['one line', sixteen])).toBe('min(60vh, calc(16 * 1.5em + 18px))');
    expect(panelHeight([`${'x'.repeat(200)}\nshort`])).toBe('min(60vh, calc(3 * 1.5em + 18px))'); // 200 characters wrap into 2 lines
    expect(panelHeight([])).toBe('min(60vh, calc(2 * 1.5em + 18px))'); // the hint
  });

  it('scrolls what does not fit, wraps long lines, and is pinned by a click or Enter and let go by Escape', () => {
    expect(storyPanel(['a <b>'])).toMatch(/^<pre id="story" tabindex="0" aria-live="polite" style="height: min\(60vh, [^"]+\)">Hover over/);
    expect(STORY_STYLE).toContain('overflow-y: auto');
    expect(STORY_STYLE).toContain('white-space: pre-wrap; overflow-wrap: anywhere');
    expect(STORY_STYLE).not.toMatch(/#story \{[^}]*\bheight: 15em/); // the fixed panel that cut stories off
    for (const handler of ["'mouseenter', function () { if (!pinned) show(this); }", "'click', function () { pin(this); }", "e.key === 'Enter'", "e.key === 'Escape'"]) {
      expect(STORY_SCRIPT).toContain(handler);
    }
  });
});
