import type { AgentRun } from './agent.js';
import type { AlertResult } from '../results/alerts.js';
import type { Metrics } from '../results/metrics.js';
import type { SeriesCounts } from '../model/series.js';
import type { WrittenScenario } from '../model/types.js';
import type { Verdict } from '../scenario/expect.js';
import type { WarningKind } from '../scenario/warnings.js';

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
  /** Settings written that have no effect under the others, as one-paragraph texts (also said on stderr). */
  warnings: readonly string[];
  metrics: Metrics;
  precision?: PrecisionInfo;
  /** The run's series, when `--series` asked for one (docs/model.md, "Time"). */
  series?: SeriesCounts;
  /** The scenario's alerts, evaluated on its series. */
  alerts?: AlertResult[];
}

/** What every report carries so that a run can be replayed. */
export interface RunInfo {
  version: string;
  /** The command line that reproduces the run. */
  replay: string;
  /** The agent files among the runs (their tools are runs of the report): their readings. */
  agents?: readonly AgentRun[];
}

/** One scenario's expectations, checked against its run: what `check` reports. */
export interface CheckedScenario {
  /** Short label, as for ScenarioRun. */
  name: string;
  file: string | null;
  seed: string;
  /** Primary actions simulated: the sample behind every measured value. */
  actions: number;
  /** Settings that have no effect in this scenario, as --json's `warnings` of `run` (already said on stderr), and where each was written. */
  warnings: readonly CheckWarning[];
  verdicts: Verdict[];
  /** Whether it ran coupled (model/capacity.ts): the JSON's `model` version follows. */
  coupled: boolean;
  /** Whether it has a trigger (docs/model.md, "Inbound delivery"), whose rules are version 4's too: present only then. */
  triggered?: true;
}

/** A setting with no effect (or what `kind` says): its one-paragraph text (printable), and the place it names when it names one. */
export interface CheckWarning {
  text: string;
  source?: string;
  line?: number;
  kind?: WarningKind;
}

/**
 * A scenario file `check` could not read or validate. The others are still checked; the file
 * becomes an error case in JUnit and an entry of `errors` in JSON, and the exit status is 2.
 */
export interface CheckError {
  /** Short label, as for ScenarioRun. */
  name: string;
  /** The file as given. */
  file: string;
  /** The one-paragraph error, as printed on standard error (printable: no control codes). */
  message: string;
  /** Where the error is: a position in the file or in a data file it names. */
  source?: string;
  line?: number;
  /** Dotted key path, when the error is about one key. */
  key?: string;
}

/** Everything `check` reports, in the order the files were given within each list. */
export interface CheckReport {
  checked: CheckedScenario[];
  errors: CheckError[];
  /** Files without an expect: block, skipped. */
  skipped: string[];
}
