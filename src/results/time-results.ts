/** A run's series and alerts as reporters receive them. */
import type { SeriesCounts } from '../model/series.js';
import type { WrittenScenario } from '../model/types.js';
import { runAlerts, summary, type AlertResult, type AlertSummary } from './alerts.js';
import type { RunState } from './metrics.js';

/** What a run's report holds of time (ScenarioRun's `series` and `alerts`). */
export interface TimeResults { series?: SeriesCounts; alerts?: AlertResult[] }

/** What a run adds to its report from its series: the series if asked for (`shown`), and its alerts. */
export function timeResults(scenario: WrittenScenario, state: RunState, shown: boolean): TimeResults {
  const series = state.series();
  if (!series) return {};
  const alerts = runAlerts(scenario, series);
  return { ...(shown ? { series } : {}), ...(alerts ? { alerts } : {}) };
}

/** What a sweep's point keeps of `timeResults`: its alerts' readings, no series and no list of firings. */
export function alertsOnly(t: TimeResults): { alerts?: AlertSummary[] } {
  return t.alerts ? { alerts: t.alerts.map(summary) } : {};
}
