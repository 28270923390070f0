/** What `idem-sim lab` writes into its page for the page's script: the scenario to start from and the missions. */
import type { Override } from '../scenario/parse.js';
import type { CarriedBuckets } from './histogram-files.js';

/** A scenario file the page can load: its text, run as the CLI runs it. */
export interface LabScenario {
  /** Its name: the file's base name, or `lab-defaults`. */
  name: string;
  /** The file as error messages name it, and as the equivalent command names it (null: the built-in lab defaults). */
  source: string;
  file: string | null;
  text: string;
  /** The lab's own --set and --actions, on top of the file. */
  overrides: Override[];
  seed: string;
  /** The values of the empirical latency files the scenario names, by file name as written. */
  data: Record<string, number[]>;
  /** The buckets of the histogram files it names, by histogramKey (lab/histogram-files.ts). */
  histograms: Record<string, CarriedBuckets>;
  /** Whether the command needs --allow-outside to read those files. */
  allowOutside: boolean;
  /** Its `expect:` block, as `idem-sim lab` parsed it (what `check` tests). */
  goals: { metric: string; text: string }[];
  /** A tool of an agent file (`lab AGENT.yaml --tool NAME`): the text is its scenario as the agent composes it. */
  tool?: {
    agent: string;
    file: string;
    name: string;
    /** `idem-sim run AGENT.yaml ...`: the run whose column of this tool has the page's starting numbers. */
    agentCommand: string;
  };
}

/** One of the guide's missions: a bundled scenario whose `expect:` block is its goals. */
export interface LabMission {
  /** The file's base name (`mission-1-blind-retries`): where its star is kept. */
  id: string;
  number: number;
  /** The file's `description:` and `hint:`. */
  description: string;
  hint: string;
  /** The mission's scenario; its goals are the file's `expect:` block. */
  scenario: LabScenario;
}

export interface LabConfig {
  version: string;
  start: LabScenario;
  missions: LabMission[];
}

/** Where the earned stars are kept in the browser's localStorage. */
export const STARS_KEY = 'idem-sim-lab:stars';
