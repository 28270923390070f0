/** The formats of `idem-sim alerts`, default first, and their words in --help (loads no reporter). */
import type { FormatWords } from './formats.js';

export const ALERT_FORMAT_INFO = {
  table: { help: 'default: each alert as simulated and as a rule' },
  prometheus: { help: 'a rule group for rule_files' },
  'promtool-test': { help: 'a promtool test rules file: the simulated series in, the simulated firings expected' },
} as const satisfies Record<string, FormatWords>;

export type AlertFormat = keyof typeof ALERT_FORMAT_INFO;

/** The choices of `alerts --format`, default first. */
export const ALERT_FORMATS = Object.keys(ALERT_FORMAT_INFO) as AlertFormat[];

/** Whether `format` needs the scenario simulated (its series and firings). */
export const simulates = (format: AlertFormat): boolean => format === 'promtool-test';
