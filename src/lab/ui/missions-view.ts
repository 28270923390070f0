/**
 * The missions (the guide's four, and inbound delivery's): a button each (its star beside it), the loaded mission's goal, hint
 * and goals (the file's `expect:` block, each ticked when the run meets it), and the stars,
 * kept in the browser's localStorage until cleared.
 */
import { describeReading } from '../../report/format.js';
import { metricLabel } from '../metric-text.js';
import { STARS_KEY, type LabMission } from '../config.js';
import type { GoalResult } from '../protocol.js';

const $ = (id: string) => document.getElementById(id) as HTMLElement;

/** The stars earned, by mission id; an unreadable or missing entry is none. */
function readStars(): Set<string> {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(STARS_KEY) ?? '[]');
    return new Set(Array.isArray(stored) ? stored.filter((s): s is string => typeof s === 'string') : []);
  } catch {
    return new Set();
  }
}

function writeStars(stars: ReadonlySet<string>): void {
  try {
    localStorage.setItem(STARS_KEY, JSON.stringify([...stars].sort()));
  } catch {
    // Storage refused (a private window, say): the star shows until the page closes.
  }
}

/** The goals a panel shows: a mission's, or those of a file with an `expect:` block of its own. */
export interface Goals {
  title: string;
  hint: string;
  goals: readonly { metric: string; text: string }[];
  /** The mission whose star the goals earn, if any. */
  mission?: LabMission;
}

export class MissionsView {
  private stars = readStars();
  private current: Goals | null = null;

  constructor(private readonly missions: readonly LabMission[], load: (m: LabMission) => void) {
    for (const m of missions) $('missions-title').parentElement?.querySelector(`[data-mission="${m.id}"]`)?.addEventListener('click', () => load(m));
    $('clear-stars').addEventListener('click', () => { this.stars = new Set(); writeStars(this.stars); this.showStars(); });
    this.showStars();
  }

  private showStars(): void {
    for (const m of this.missions) {
      const earned = this.stars.has(m.id);
      const star = document.querySelector(`[data-star="${m.id}"]`);
      star?.classList.toggle('earned', earned);
      if (star) star.textContent = earned ? '★' : '☆';
      const words = star?.nextElementSibling;
      if (words) words.textContent = earned ? ' (star earned)' : ' (no star yet)';
    }
    const n = this.missions.filter((m) => this.stars.has(m.id)).length;
    $('stars-count').textContent = `${n} of ${this.missions.length} stars.`;
  }

  /** Shows `goals` (null: the scenario has none), before its first run. */
  show(goals: Goals | null): void {
    this.current = goals;
    for (const b of document.querySelectorAll<HTMLElement>('button.mission')) b.setAttribute('aria-pressed', String(b.dataset['mission'] === goals?.mission?.id));
    const panel = $('mission-panel');
    panel.hidden = goals === null;
    if (!goals) return;
    $('mission-title').textContent = goals.title;
    $('mission-hint').textContent = goals.hint;
    $('mission-goals').replaceChildren(...goals.goals.map((g) => Object.assign(document.createElement('li'), { textContent: `${metricLabel(g.metric)} (${g.metric}) ${g.text}` })));
    $('mission-verdict').textContent = '';
  }

  /** Ticks the goals a run met; a mission whose goals all pass earns its star. */
  update(results: readonly GoalResult[] | null): void {
    const goals = this.current;
    if (!goals) return;
    const items = $('mission-goals').children;
    goals.goals.forEach((g, k) => {
      const r = results?.find((x) => x.metric === g.metric && x.text === g.text);
      const item = items[k];
      if (!item) return;
      item.className = r ? (r.pass ? 'pass' : 'fail') : '';
      item.textContent = `${metricLabel(g.metric)} (${g.metric}) ${g.text}${r ? `: ${r.pass ? 'met' : 'not met'}, measured ${describeReading({ value: r.value }, g.metric)}` : ''}`;
    });
    const all = results !== null && goals.goals.length > 0 && goals.goals.every((g) => results.some((r) => r.metric === g.metric && r.text === g.text && r.pass));
    const verdict = $('mission-verdict');
    if (!all) { verdict.textContent = results === null ? '' : 'Not every goal is met yet.'; return; }
    if (goals.mission && !this.stars.has(goals.mission.id)) {
      this.stars.add(goals.mission.id);
      writeStars(this.stars);
      this.showStars();
    }
    verdict.textContent = goals.mission ? `Every goal is met: mission ${goals.mission.number}'s star is earned.` : 'Every goal is met.';
  }
}
