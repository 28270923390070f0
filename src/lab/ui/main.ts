/**
 * The lab page's script (built into dist/browser/lab-ui.js): loads a scenario into the knobs,
 * runs it in the engine's worker whenever a knob changes, and shows the results. A run that
 * takes longer than PROGRESS_AFTER_MS shows a progress indicator and a Stop button.
 */
import type { Override } from '../../scenario/parse.js';
import type { LabConfig, LabMission, LabScenario } from '../config.js';
import { num } from '../../report/format.js';
import { DEFAULT_SEED } from '../../scenario/seed.js';
import { runArgs, runCommandLine } from '../command.js';
import { isKnobPath, knobOverrides, knobState, shownKnobs, switchedOnTexts, type KnobState } from '../overrides.js';
import type { LabError, LabReply } from '../protocol.js';
import { Cancelled, EngineClient } from './engine-client.js';
import { KnobsView } from './knobs-view.js';
import { MissionsView, type Goals } from './missions-view.js';
import { ResultsView } from './results-view.js';
import { storyPanel } from './story.js';

/** Runs shorter than this show no progress indicator. */
const PROGRESS_AFTER_MS = 200;

const $ = (id: string) => document.getElementById(id) as HTMLElement;

/** The status line, and its copy in the narrow window's bar. */
function showStatus(text: string): void {
  $('status').textContent = text;
  const bar = document.querySelector('[data-summary="status"]');
  if (bar) bar.textContent = text;
}

class Lab {
  private readonly engine: EngineClient;
  private readonly knobs: KnobsView;
  private readonly results: ResultsView;
  private readonly missions: MissionsView;
  private scenario: LabScenario;
  private base: KnobState | undefined;
  /** The scenario's own overrides that no knob shows. */
  private extras: Override[] = [];
  private runs = 0;
  /** What the last run asked for: a change event after Enter (or a knob set back) asks again for nothing new. */
  private asked = '';

  constructor(private readonly config: LabConfig) {
    this.scenario = config.start;
    this.engine = new EngineClient($('lab-engine').textContent ?? '');
    this.knobs = new KnobsView($('knobs'), () => void this.run(), (key) => (this.base ? switchedOnTexts(key, this.knobs.read(), this.base) : {}));
    this.results = new ResultsView(storyPanel($('story'), $('timeline')));
    this.missions = new MissionsView(config.missions, (m) => void this.load(m.scenario, m));
    $('load-start').addEventListener('click', () => void this.load(config.start));
    $('stop').addEventListener('click', () => this.engine.stop());
    $('copy-command').addEventListener('click', () => void navigator.clipboard?.writeText($('command').textContent ?? '').catch(() => undefined));
  }

  /** Loads a scenario into the knobs (its file's values, and its own overrides on top), then runs it. */
  async load(s: LabScenario, mission?: LabMission): Promise<void> {
    this.scenario = s;
    this.asked = '';
    $('scenario-name').textContent = s.name;
    const reply = await this.ask({ kind: 'load', text: s.text, source: s.source, overrides: s.overrides, seed: s.seed, data: s.data, histograms: s.histograms });
    if (!reply) return;
    if (reply.kind !== 'loaded') { this.failed(reply.kind === 'error' ? reply.error : undefined, []); return; }
    this.base = knobState(reply.base, reply.fileSeed ?? DEFAULT_SEED);
    this.extras = s.overrides.filter((o) => !isKnobPath(o));
    const shown = shownKnobs(reply, s.seed);
    this.knobs.set(shown.state, shown.written);
    this.missions.show(goalsOf(s, mission ?? this.config.missions.find((m) => m.scenario.text === s.text && s.overrides.length === 0)));
    if (mission) $('mission-panel').focus();
    await this.run();
  }

  /** Runs the knobs' settings. */
  async run(): Promise<void> {
    if (!this.base) return;
    const state = this.knobs.read();
    const overrides = [...this.extras, ...knobOverrides(state, this.base)];
    const seed = state.texts['seed'] ?? DEFAULT_SEED;
    const s = this.scenario;
    const command = runCommandLine(s.file, overrides, seed, s.allowOutside);
    if (command === this.asked) return;
    this.asked = command;
    $('command').textContent = command;
    $('command').dataset['args'] = JSON.stringify(runArgs(s.file, overrides, seed, s.allowOutside));
    const started = performance.now();
    const reply = await this.ask({
      kind: 'run', text: s.text, source: s.source, overrides, seed, data: s.data, histograms: s.histograms, command, version: this.config.version, name: s.file ?? s.name,
    });
    if (!reply) return;
    if (reply.kind !== 'result') { this.failed(reply.kind === 'error' ? reply.error : undefined, overrides); return; }
    this.knobs.clearErrors();
    $('error').hidden = true;
    this.results.render(reply);
    this.knobs.showSimulated(reply.metrics['primary_actions'] as number);
    this.missions.update(reply.goals);
    showStatus(`${num(reply.metrics['primary_actions'] as number)} actions simulated in ${num(reply.elapsedMs)} ms.`);
    // From the knob's change to the results on the page: the engine, the messages and the drawing.
    $('status').dataset['roundTripMs'] = (performance.now() - started).toFixed(1);
    this.settled('done');
  }

  /** A request to the engine with the progress indicator; null when a later request replaced it. */
  private async ask(req: Parameters<EngineClient['request']>[0]): Promise<LabReply | null> {
    const status = $('status');
    status.dataset['state'] = 'running';
    const slow = setTimeout(() => {
      $('progress').hidden = false;
      $('stop').hidden = false;
      showStatus('Running…');
    }, PROGRESS_AFTER_MS);
    try {
      return await this.engine.request(req);
    } catch (e) {
      if (e instanceof Cancelled) {
        if (!this.engine.busy) { this.asked = ''; showStatus('Stopped.'); this.settled('stopped'); }
        return null;
      }
      this.failed({ message: `internal error: ${(e as Error).message}. This is a bug in idem-sim; please report it with the command shown.`, keyPath: '', source: '' }, []);
      return null;
    } finally {
      clearTimeout(slow);
      if (!this.engine.busy) { $('progress').hidden = true; $('stop').hidden = true; }
    }
  }

  /** Shows a refused input under its knob (else above the results); the results stay those of the last run. */
  private failed(error: LabError | undefined, overrides: readonly Override[]): void {
    const e = error ?? { message: 'the engine gave no answer', keyPath: '', source: '' };
    const onKnob = this.knobs.showError(e, overrides);
    const banner = $('error');
    banner.hidden = onKnob;
    banner.textContent = onKnob ? '' : e.message;
    showStatus(onKnob ? 'Not run: a knob holds a value the scenario refuses (see the message under it). The results below are the last run\'s.' : 'Not run.');
    this.settled('error');
  }

  private settled(state: 'done' | 'error' | 'stopped'): void {
    const status = $('status');
    status.dataset['state'] = state;
    status.dataset['runs'] = String(++this.runs);
  }
}

/** The goals to show for a scenario: its mission's, or its own `expect:` block's (none: no panel). */
function goalsOf(s: LabScenario, mission: LabMission | undefined): Goals | null {
  if (mission) return { title: `Mission ${mission.number}: ${mission.description}`, hint: `Hint: ${mission.hint}`, goals: s.goals, mission };
  return s.goals.length === 0 ? null : { title: `The goals of ${s.name} (its expect: block)`, hint: '', goals: s.goals };
}

const config = JSON.parse($('lab-config').textContent ?? '{}') as LabConfig;
void new Lab(config).load(config.start);
