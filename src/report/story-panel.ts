/**
 * The report's story panel: the story of the timeline row under the pointer (or focused, or
 * clicked), kept in view above the timeline. Two things keep a long story readable whole:
 *
 * - The panel is as tall as the page's longest story (up to 60% of the window), fixed, so no
 *   story is cut off and the timeline does not move as stories of other lengths come and go
 *   (a panel that grew and shrank would slide another row under the pointer).
 * - The panel keeps itself in view while the page scrolls (sticky) only once it holds a story:
 *   holding only its hint, it scrolls away with the page and hides no row of the timeline.
 * - A click (or Enter on a focused row) pins the story: the pointer may then cross other rows
 *   on its way to the panel, and the story stays while it is scrolled (a narrow window wraps
 *   lines, so a story can still outgrow the panel). A second click, a click on another row or
 *   Escape unpins it.
 */
import { escapeHtml } from './html.js';

/** Characters a line of the panel holds before it wraps, at its narrowest usual width (a laptop window). */
const LINE_CHARS = 110;

/** Lines the panel takes for `story`: each of its lines, wrapped at LINE_CHARS. */
function visualLines(story: string): number {
  return story.split('\n').reduce((n, line) => n + Math.max(1, Math.ceil(line.length / LINE_CHARS)), 0);
}

/** The panel's height: the longest of `stories` (and of the hint it starts with), at 1.5 lines per em, up to 60% of the window. */
export function panelHeight(stories: readonly string[]): string {
  const lines = Math.max(2, ...stories.map(visualLines));
  return `min(60vh, calc(${lines} * 1.5em + 18px))`; // 18 px: padding and border
}

const HINT = 'Hover over, focus or click a row of the timeline to read that action\'s story. Click a row to keep its story here while you scroll it.';

/** The panel's element, sized for `stories`. */
export function storyPanel(stories: readonly string[]): string {
  return `<pre id="story" tabindex="0" aria-live="polite" style="height: ${panelHeight(stories)}">${escapeHtml(HINT)}</pre>`;
}

export const STORY_STYLE = `
#story { position: relative; z-index: 1; min-height: 4em; overflow-y: auto; overscroll-behavior: contain; resize: vertical; margin: 8px 0; padding: 8px 12px; background: #f6f8fa; border: 1px solid #d0d7de; white-space: pre-wrap; overflow-wrap: anywhere; }
#story.has-story { position: sticky; top: 0; }
#story.pinned { border-color: #d1495b; box-shadow: inset 3px 0 0 #d1495b; }`;

/** Shows a row's story (its <title>) in the panel; a click or Enter pins it, Escape unpins. */
export const STORY_SCRIPT = `
(function () {
  var panel = document.getElementById('story');
  var rows = document.querySelectorAll('svg.timeline g.row');
  var pinned = null;
  function show(row) {
    for (var k = 0; k < rows.length; k++) rows[k].classList.remove('selected');
    row.classList.add('selected');
    panel.classList.add('has-story');
    panel.textContent = row.querySelector('title').textContent;
    panel.scrollTop = 0;
  }
  function pin(row) {
    pinned = pinned === row ? null : row;
    panel.classList.toggle('pinned', pinned !== null);
    show(row);
  }
  for (var k = 0; k < rows.length; k++) {
    rows[k].addEventListener('mouseenter', function () { if (!pinned) show(this); });
    rows[k].addEventListener('focus', function () { if (!pinned) show(this); });
    rows[k].addEventListener('click', function () { pin(this); });
    rows[k].addEventListener('keydown', function (e) { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); pin(this); } });
  }
  document.addEventListener('keydown', function (e) {
    if (e.key === 'Escape' && pinned) { pinned = null; panel.classList.remove('pinned'); }
  });
})();`;
