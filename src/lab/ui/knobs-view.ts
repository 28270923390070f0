/**
 * The knobs on the page: their values (set from a scenario, read as typed), each one's value
 * in its unit beside it, an error under the knob the CLI's message is about, and a call back
 * when one changes (at once for a choice or a checkbox, after a pause in typing for a text).
 */
import type { LabError } from '../protocol.js';
import type { Override } from '../../scenario/parse.js';
import { formatPath } from '../../scenario/document.js';
import { KNOB_KEYS, LATENCY_KEYS, knobSpec, unitText, writtenLatencyText, type KnobKind } from '../knobs.js';
import type { KnobState, LatencyForm } from '../overrides.js';
import { actionsNote, byDuration } from '../time-knobs.js';

/** Typing pauses this long before a text knob runs the scenario again (Enter runs it at once). */
const TYPING_PAUSE_MS = 350;

type Control = HTMLInputElement | HTMLSelectElement;

export class KnobsView {
  private readonly controls = new Map<string, Control>();
  private readonly latencySelect: HTMLSelectElement;
  private timer: ReturnType<typeof setTimeout> | undefined;

  /** `switchedOn`: the knob texts a switch sets as a person turns it on (overrides.ts switchedOnTexts). */
  constructor(root: HTMLElement, private readonly changed: () => void, private readonly switchedOn: (key: string) => Record<string, string> = () => ({})) {
    for (const el of root.querySelectorAll<Control>('[data-key]')) this.controls.set(el.dataset['key'] ?? '', el);
    this.latencySelect = root.querySelector('#latency-form') as HTMLSelectElement;
    root.addEventListener('input', (e) => this.onInput(e));
    root.addEventListener('change', (e) => this.onChange(e));
    root.addEventListener('keydown', (e) => this.onKey(e));
  }

  private onInput(e: Event): void {
    const el = e.target as Control;
    if (!(el instanceof HTMLInputElement) || el.type !== 'text') return;
    this.showUnit(el);
    this.showActionsSource();
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.changed(), TYPING_PAUSE_MS);
  }

  private onChange(e: Event): void {
    const el = e.target as Control;
    if (el === this.latencySelect) this.showLatencyForm(this.latencySelect.value as LatencyForm);
    if (el instanceof HTMLInputElement && el.dataset['kind'] === 'switch') {
      if (el.checked) this.setTexts(this.switchedOn(el.dataset['key'] ?? ''));
      this.showSwitched();
    }
    if (el instanceof HTMLInputElement && el.type === 'text') this.showUnit(el);
    this.showActionsSource();
    clearTimeout(this.timer);
    this.changed();
  }

  /** Enter runs at once; ArrowUp and ArrowDown step a number knob. */
  private onKey(e: KeyboardEvent): void {
    const el = e.target;
    if (!(el instanceof HTMLInputElement) || el.type !== 'text') return;
    if (e.key === 'Enter') { e.preventDefault(); clearTimeout(this.timer); this.changed(); return; }
    const kind = el.dataset['kind'] as KnobKind;
    if ((e.key !== 'ArrowUp' && e.key !== 'ArrowDown') || !['probability', 'count', 'count_or_unbounded', 'number'].includes(kind)) return;
    const n = Number(el.value);
    if (!Number.isFinite(n)) return;
    e.preventDefault();
    const step = kind === 'count' || kind === 'count_or_unbounded' ? 1 : kind === 'probability' ? 0.01 : 0.1;
    const spec = knobSpec(el.dataset['key'] ?? '');
    const next = Math.min(spec?.max ?? Infinity, Math.max(spec?.min ?? -Infinity, n + (e.key === 'ArrowUp' ? step : -step)));
    el.value = String(Number(next.toPrecision(12)));
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }

  private showUnit(el: HTMLInputElement): void {
    const out = el.parentElement?.querySelector('output');
    if (out && el.dataset['key'] !== 'actions') out.textContent = unitText(el.dataset['kind'] as KnobKind, el.value, el.dataset['key']);
  }

  /** Sets some text knobs (a switch's offer), their units with them. */
  private setTexts(texts: Readonly<Record<string, string>>): void {
    for (const [key, text] of Object.entries(texts)) {
      const el = this.controls.get(key);
      if (el instanceof HTMLInputElement && el.type === 'text') { el.value = text; this.showUnit(el); }
    }
  }

  /** The actions knob: a number to type, or, while load.duration sets the run's length, the count it brings (read only). */
  private showActionsSource(simulated = false): void {
    const el = this.controls.get('actions');
    if (!(el instanceof HTMLInputElement)) return;
    const duration = byDuration(this.read().texts);
    el.readOnly = duration;
    const out = el.parentElement?.querySelector('output');
    if (out) out.textContent = actionsNote(duration, simulated);
  }

  /** After a run: the actions knob shows the primaries simulated where load.duration set their count. */
  showSimulated(primaries: number): void {
    const el = this.controls.get('actions');
    if (!(el instanceof HTMLInputElement) || !byDuration(this.read().texts)) return;
    el.value = String(primaries);
    this.showActionsSource(true);
  }

  /** Shows the knobs of each section that is switched on (service.capacity, a retry budget, a breaker), hides the others'. */
  private showSwitched(): void {
    for (const knob of document.querySelectorAll<HTMLElement>('.knob[data-switch]')) {
      const on = this.controls.get(knob.dataset['switch'] ?? '');
      knob.hidden = !(on instanceof HTMLInputElement && on.checked);
    }
  }

  /** Shows one pair of latency knobs. */
  private showLatencyForm(form: LatencyForm): void {
    for (const el of document.querySelectorAll<HTMLElement>('[data-latency-form]')) el.hidden = el.dataset['latencyForm'] !== form;
  }

  /** Sets every knob; `written` describes a latency the knobs cannot show (a mixture, say), '' for none. */
  set(state: KnobState, written: string): void {
    for (const [key, el] of this.controls) {
      const text = state.texts[key] ?? '';
      if (el instanceof HTMLInputElement && el.type === 'checkbox') el.checked = text === 'true';
      else el.value = text;
      if (el instanceof HTMLInputElement && el.type === 'text') this.showUnit(el);
    }
    const option = this.latencySelect.querySelector<HTMLOptionElement>('option[value="written"]');
    if (option) {
      option.disabled = written === '';
      option.textContent = writtenLatencyText(written);
    }
    this.latencySelect.value = state.latency;
    this.showLatencyForm(state.latency);
    this.showSwitched();
    this.showActionsSource();
    this.clearErrors();
  }

  read(): KnobState {
    const texts: Record<string, string> = {};
    for (const [key, el] of this.controls) texts[key] = el instanceof HTMLInputElement && el.type === 'checkbox' ? String(el.checked) : el.value;
    return { texts, latency: this.latencySelect.value as LatencyForm };
  }

  clearErrors(): void {
    for (const [key, el] of this.controls) {
      el.removeAttribute('aria-invalid');
      const p = document.getElementById(`e-${key.replace(/[^\w]/g, '-')}`);
      if (p) { p.hidden = true; p.textContent = ''; }
    }
  }

  /** Shows `error` under the knob it is about; false when it is about none (the file itself, say). */
  showError(error: LabError, overrides: readonly Override[]): boolean {
    this.clearErrors();
    const key = knobOf(error, overrides, this.read().latency);
    const el = key === undefined ? undefined : this.controls.get(key);
    const p = key === undefined ? null : document.getElementById(`e-${key.replace(/[^\w]/g, '-')}`);
    if (!el || !p) return false;
    el.setAttribute('aria-invalid', 'true');
    p.textContent = error.message;
    p.hidden = false;
    return true;
  }
}

/** The knob an error is about: the one whose option it blames, else the one at its key path. */
function knobOf(error: LabError, overrides: readonly Override[], form: LatencyForm): string | undefined {
  if (error.source === '--seed') return 'seed';
  if (KNOB_KEYS.includes(error.keyPath)) return error.keyPath;
  const blamed = overrides.find((o) => o.option === error.source);
  if (!blamed) return undefined;
  const key = formatPath(blamed.path);
  if (key === 'service.latency') return form === 'written' ? undefined : LATENCY_KEYS[form][0];
  return KNOB_KEYS.includes(key) ? key : undefined;
}
