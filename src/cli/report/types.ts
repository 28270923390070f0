import type { Metrics } from '../../model/metrics.js';
import type { WrittenScenario } from '../../model/types.js';
import type { Verdict } from '../../scenario/expect.js';

/** How a `--precision` run ended. */
export interface PrecisionInfo {
  metric: string;
  half_width: number;
  max_actions: number;
  /** False when the run stopped at max_actions before reaching the target. */
  reached: boolean;
}

/** One scenario's run, as reporters see it. */
export interface ScenarioRun {
  /** Short label (file name without extension, or `lab-defaults`). */
  name: string;
  /** The scenario file as given, or null for the built-in defaults. */
  file: string | null;
  seed: string;
  scenario: WrittenScenario;
  metrics: Metrics;
  precision?: PrecisionInfo;
}

/** What every report carries so that a run can be replayed. */
export interface RunInfo {
  version: string;
  /** The command line that reproduces the run. */
  replay: string;
}

/** One scenario's expectations, checked against its run: what `check` reports. */
export interface CheckedScenario {
  /** Short label, as for ScenarioRun. */
  name: string;
  file: string | null;
  seed: string;
  verdicts: Verdict[];
}
