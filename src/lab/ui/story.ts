/**
 * The report's story panel (report/story-panel.ts) for a timeline the page redraws: the
 * same behaviour as the report's script (hover, focus or click a row for its story; a click or
 * Enter pins it; a second click, another row or Escape unpins), bound once on the timeline's
 * container rather than on each row, so it holds for every redrawn timeline. A new timeline
 * empties the panel, which then scrolls away with the page until it holds a story again.
 */
import { panelHeight } from '../../report/story-panel.js';

export interface StoryPanel {
  /** A new timeline: nothing selected or pinned, the panel sized for its `stories`. */
  reset(stories: readonly string[]): void;
}

export function storyPanel(panel: HTMLElement, container: HTMLElement): StoryPanel {
  const hint = panel.textContent ?? '';
  let pinned: Element | null = null;
  const rowOf = (target: EventTarget | null) => (target instanceof Element ? target.closest('svg.timeline g.row') : null);
  const show = (row: Element) => {
    for (const r of container.querySelectorAll('g.row.selected')) r.classList.remove('selected');
    row.classList.add('selected');
    panel.classList.add('has-story');
    panel.textContent = row.querySelector('title')?.textContent ?? '';
    panel.scrollTop = 0;
  };
  const pin = (row: Element) => {
    pinned = pinned === row ? null : row;
    panel.classList.toggle('pinned', pinned !== null);
    show(row);
  };
  container.addEventListener('mouseover', (e) => { const row = rowOf(e.target); if (row && !pinned) show(row); });
  container.addEventListener('focusin', (e) => { const row = rowOf(e.target); if (row && !pinned) show(row); });
  container.addEventListener('click', (e) => { const row = rowOf(e.target); if (row) pin(row); });
  container.addEventListener('keydown', (e) => {
    const row = rowOf(e.target);
    if (row && (e.key === 'Enter' || e.key === ' ')) { e.preventDefault(); pin(row); }
  });
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && pinned) { pinned = null; panel.classList.remove('pinned'); }
  });
  return {
    reset(stories) {
      pinned = null;
      panel.classList.remove('pinned', 'has-story');
      panel.textContent = hint;
      panel.style.height = panelHeight(stories);
    },
  };
}
