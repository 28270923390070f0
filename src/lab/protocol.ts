/** The messages between the lab page and its engine, which runs in a Web Worker. */
import type { WrittenScenario } from '../model/types.js';
import type { Override } from '../scenario/parse.js';
import type { CarriedBuckets } from './histogram-files.js';
import type { TimeView } from './time-view.js';

/** What the page runs: a scenario file's text with overrides on top, as `idem-sim run FILE --set ... --seed S` would. */
export interface ScenarioInput {
  /** The file's text ('' for the built-in lab defaults). */
  text: string;
  /** The file's name in error messages. */
  source: string;
  overrides: readonly Override[];
  /** The seed as given; checked as `--seed` is. */
  seed: string;
  /** The values of the empirical latency files the scenario names, by file name as written (read by `idem-sim lab`). */
  data: Readonly<Record<string, readonly number[]>>;
  /** The buckets of the histogram files it names, by histogramKey (lab/histogram-files.ts; read by `idem-sim lab`). */
  histograms: Readonly<Record<string, CarriedBuckets>>;
}

/** Asks for the scenario as written, with and without the overrides (to set the knobs). */
export interface LoadRequest extends ScenarioInput { kind: 'load'; id: number }

/** Asks for a run: metrics, the timeline and the checks of the file's `expect:` block. */
export interface RunRequest extends ScenarioInput {
  kind: 'run';
  id: number;
  /** The equivalent command line, for the timeline's caption. */
  command: string;
  /** The tool's version, for the caption. */
  version: string;
  /** The file's name for the downloaded scenario's comment. */
  name: string;
}

export type LabRequest = LoadRequest | RunRequest;

/** A refused input, as the CLI words it (the text after `idem-sim: error: `). */
export interface LabError {
  message: string;
  /** The key the error is about ('' for the whole document or an option). */
  keyPath: string;
  /** The file or the option (`--set client.timeout=x`, `--seed`) blamed. */
  source: string;
}

export interface Loaded {
  kind: 'loaded';
  id: number;
  /** The file alone, and with the overrides. */
  base: WrittenScenario;
  start: WrittenScenario;
  /** The file's `seed:`, if any. */
  fileSeed?: string;
}

/** One `expect:` line and whether the run meets it. */
export interface GoalResult {
  metric: string;
  /** As written: `<= 0.5`. */
  text: string;
  pass: boolean;
  /** What the run measured (null: no samples). */
  value: number | null;
}

export interface RunResult {
  kind: 'result';
  id: number;
  /** Every metric under the model's names, rounded as `run --json` writes them. */
  metrics: Record<string, unknown>;
  /** The action timeline (the report's SVG) and each row's story. */
  timeline: string;
  stories: string[];
  /** A coupled run's saturation in words (the report's paragraph: a storm with no incident, an incident not recovered from), '' for any other run. */
  saturation: string;
  /** The run over time: its series in the page's buckets and the charts of some of its counts (null: a run whose series outlasted them and the CLI counts none). */
  time: TimeView | null;
  /** What the timeline's rows are, in words. */
  sampleNote: string;
  /** What the key-store figure is made of, in words (rate, retention, record size). */
  keyStoreNote: string;
  goals: GoalResult[];
  /** Settings that do nothing under the others, as the CLI warns of them. */
  warnings: string[];
  /** The scenario as a file (`seed:` and the overrides written in), for `idem-sim check`. */
  yaml: string;
  /** Time the engine took, ms. */
  elapsedMs: number;
}

export interface Failed { kind: 'error'; id: number; error: LabError }

export type LabReply = Loaded | RunResult | Failed;
