/** Registers `alerts` on the program (one entry of main.ts's list); alerts.ts and its renderers load when it runs. */
import { Option, type Command } from 'commander';
import { ALERT_FORMAT_INFO, ALERT_FORMATS } from '../report/alert-formats.js';
import { formatList } from '../report/formats.js';
import { withChoices } from '../completion/choices.js';
import type { Io } from '../io/streams.js';
import { seriesStepOption } from './options.js';
import { collect, parsedOption } from './settings/given.js';
import { simulationOptions } from './settings/simulation.js';
import type { AlertsOptions } from './alerts.js';

/** `alerts`: the scenario's alerts as Prometheus rules, and a promtool test of them on the simulated series (docs/prometheus-rules.md). */
export function declareAlerts(cmd: Command, { io, signal, setCode }: { io: Io; signal: AbortSignal; setCode: (code: number) => void }): void {
  simulationOptions(cmd.command('alerts')
    .description("the scenario's alerts as Prometheus alerting rules, and a promtool test that they fire when the simulated ones do")
    .argument('<scenario>', 'a scenario file with alerts:'), false)
    // --format, --metric and --label are read once, by alertsSettings.
    .addOption(withChoices(new Option('--format <format>', formatList(ALERT_FORMATS, ALERT_FORMAT_INFO)), () => ALERT_FORMATS))
    .addOption(parsedOption('--series <step>', 'the buckets the alerts are judged on, as run --series (default 1m): the rules read and are evaluated at this step', seriesStepOption))
    .addOption(new Option('--metric <series=name>', 'the counter a series count is read from (default idempotency_SERIES_total), such as dedup_hits=myapp_replays_total (repeatable)').argParser(collect))
    .addOption(new Option('--label <name=value>', "a label that picks the service's series, such as tool=refund; the rules sum over the rest (repeatable)").argParser(collect))
    .option('--rules <file>', 'with --format promtool-test: test a rule file you keep, relative to the test file as promtool reads it, refused unless it holds the rules this command makes (default: the rules written beside the test, --out x.test.yaml with x.rules.yaml)')
    .option('--out <file>', 'write it to a file instead of stdout')
    .action(async (file: string, opts: AlertsOptions) => {
      const { alertsCommand, alertsSettings } = await import('./alerts.js');
      setCode(await alertsCommand(file, alertsSettings(opts), io, signal));
    });
}
