/**
 * The examples that end each subcommand's `--help`: command lines on the bundled scenarios,
 * each under a shell comment saying what it shows, so that the block can be pasted into a
 * shell as it is. test/cli-examples.e2e.test.ts runs every one that needs no key store.
 */
import { isAbsolute, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { shellQuote } from '../scenario/shell-quote.js';

export interface Example {
  /** What it shows, one line. */
  readonly what: string;
  /** The command line; `{scenarios}` stands for the bundled scenarios' folder. */
  readonly line: string;
  /** What it needs that a machine may not have. */
  readonly needs?: 'store';
}

/** Two or three a subcommand, by its name; every subcommand has its entry (a test checks). */
export const EXAMPLES: Readonly<Record<string, readonly Example[]>> = {
  run: [
    { what: 'a bundled scenario: every metric with its 95% confidence interval', line: 'idem-sim run {scenarios}/belgavi-refunds.yaml' },
    { what: 'an hour with an incident, counted minute by minute, as CSV', line: 'idem-sim run {scenarios}/incident-slowdown.yaml --series 1m --format csv' },
    { what: 'one key changed (latency as percentiles, fitted), as JSON', line: "idem-sim run {scenarios}/belgavi-refunds.yaml --set 'service.latency={p50: 450ms, p99: 3s}' --json" },
  ],
  sweep: [
    { what: 'the fewest workers whose backlog clears within 60 s of the pause (a storm before it, or no recovery, never counts)', line: "idem-sim sweep {scenarios}/capacity-storm.yaml --vary service.capacity.workers=120..200:9 --find 'backlog_cleared_ms.pause<=60s'" },
    { what: 'a grid of two keys, as CSV for a spreadsheet', line: 'idem-sim sweep {scenarios}/mission-3-crash-replays.yaml --vary idempotency.retention=5m,30m,1h --vary runtime.crash_probability=0.01,0.05 --format csv --out sweep.csv' },
    { what: 'one key as a page of charts', line: 'idem-sim sweep {scenarios}/mission-3-crash-replays.yaml --vary idempotency.retention=5m,10m,20m,30m,1h --format html --out sweep.html' },
  ],
  check: [
    { what: 'a mission: exit 1 until its settings are fixed', line: 'idem-sim check {scenarios}/mission-1-blind-retries.yaml' },
    { what: 'every solution, with JUnit XML for CI', line: 'idem-sim check {scenarios}/solutions/*.yaml --junit idem-sim.xml' },
    { what: 'a retry storm and the guards that end it (recovery_ms, shedding, the budget)', line: 'idem-sim check {scenarios}/capacity-storm.yaml {scenarios}/capacity-guards.yaml' },
  ],
  explain: [
    { what: 'every key of a scenario, its value and where it comes from (its line, a preset, the built-in default)', line: 'idem-sim explain {scenarios}/mission-2-slow-downstream.yaml' },
    { what: "an agent file's tools: what each takes from the agent's defaults, as JSON", line: 'idem-sim explain {scenarios}/agents/support-agent.yaml --json' },
    { what: 'with a --set, as run would read it', line: 'idem-sim explain {scenarios}/belgavi-refunds.yaml --set preset=stripe' },
  ],
  alerts: [
    { what: 'the rules for Prometheus, the service picked by a label', line: 'idem-sim alerts {scenarios}/incident-slowdown.yaml --format prometheus --label tool=refund --out incident-slowdown.rules.yaml' },
    { what: 'a test that they fire at the simulated minutes, and beside it the rules it reads, incident-slowdown.rules.yaml (then: promtool test rules incident-slowdown.test.yaml)', line: 'idem-sim alerts {scenarios}/incident-slowdown.yaml --format promtool-test --label tool=refund --out incident-slowdown.test.yaml' },
    { what: 'a test of a rule file you keep: refused unless it holds the rules these options make', line: 'idem-sim alerts {scenarios}/incident-slowdown.yaml --format promtool-test --label tool=refund --rules incident-slowdown.rules.yaml --out kept.test.yaml' },
  ],
  size: [
    { what: 'keys and memory from a rate and a retention', line: 'idem-sim size --rate 200 --retention 24h' },
    { what: "keys per action simulated, with the scenario's rate and retention", line: 'idem-sim size {scenarios}/belgavi-refunds.yaml' },
    { what: 'bytes per record measured against a real store (see probe --help)', line: 'idem-sim size {scenarios}/belgavi-refunds.yaml --from-probe probe.json', needs: 'store' },
  ],
  report: [
    { what: 'one HTML page of a run', line: 'idem-sim report {scenarios}/mission-3-crash-replays.yaml --out report.html' },
    { what: 'the action timeline alone, as SVG', line: 'idem-sim report {scenarios}/mission-2-slow-downstream.yaml --svg --out timeline.svg' },
    { what: 'an incident over time, the timeline centred on its start', line: 'idem-sim report {scenarios}/incident-slowdown.yaml --at 20m --out report.html' },
  ],
  lab: [
    { what: 'the lab on the built-in defaults: one offline page', line: 'idem-sim lab --out lab.html' },
    { what: 'starting from a mission', line: 'idem-sim lab {scenarios}/mission-2-slow-downstream.yaml --out lab.html' },
  ],
  probe: [
    { what: 'the scenario against a local Redis', line: 'idem-sim probe {scenarios}/solutions/mission-1-blind-retries.yaml --store redis://127.0.0.1:6379', needs: 'store' },
    { what: 'against PostgreSQL, kept as JSON for size --from-probe', line: 'idem-sim probe {scenarios}/belgavi-refunds.yaml --store postgres://postgres@127.0.0.1:5432/postgres --json --out probe.json', needs: 'store' },
  ],
  inventory: [
    { what: "an MCP server's tools as an agent file's skeleton: the server started as clients start it", line: 'idem-sim inventory --stdio --out agent.yaml -- node server.js' },
    { what: 'a server that needs a token: passed by name, so its value stays off the command line', line: 'idem-sim inventory --stdio --env API_TOKEN --out agent.yaml -- npx -y my-mcp-server' },
    { what: "from a server's answer to tools/list saved as JSON", line: 'idem-sim inventory tools.json --out agent.yaml' },
  ],
  fit: [
    { what: 'a saved /metrics page: the histogram to paste, the lognormal and mixture that fit it best with their goodness, and the advice on timeouts', line: "idem-sim fit {scenarios}/metrics/payments.prom --metric 'http_request_duration_seconds{route=\"/pay\"}'" },
    { what: 'another route as p50 and p99, with the unknown outcomes at the timeouts you weigh', line: "idem-sim fit {scenarios}/metrics/payments.prom --metric 'http_request_duration_seconds{route=\"/refund\"}' --form percentiles --client-timeouts 1s,2s,5s" },
    { what: "a day of a histogram from Prometheus's HTTP API, written into a scenario as its service.latency", line: "idem-sim fit --prometheus http://127.0.0.1:9090 --query 'sum by (le) (increase(http_request_duration_seconds_bucket[1d]))' --into scenario.yaml" },
  ],
  reconcile: [
    { what: "a refunds table's duplicates within 1h of each order line's first refund, each diagnosed against a 10-minute key store", line: 'idem-sim reconcile {scenarios}/effects/refunds.csv --retention 10m' },
    { what: 'the same over time, in buckets of 15 minutes, as CSV', line: 'idem-sim reconcile {scenarios}/effects/refunds.csv --retention 10m --step 15m --format csv --out refunds-over-time.csv' },
    { what: 'a gate for CI: exit 1 when an expectation fails (here 4 replays came after the retention), with JUnit XML', line: "idem-sim reconcile {scenarios}/effects/refunds.csv --retention 10m --expect 'duplicates_per_1000 <= 100' --expect 'diagnosis.same_key_after_expiry == 0' --junit refunds.xml" },
  ],
  missions: [
    { what: "the guide's missions, with a hint each", line: 'idem-sim missions' },
    { what: 'the first one', line: 'idem-sim check {scenarios}/mission-1-blind-retries.yaml' },
  ],
  merge: [
    { what: 'a run cut into two shards, each run where you like', line: 'idem-sim run {scenarios}/belgavi-refunds.yaml --actions 1e6 --shard 1/2 --out part-1.json' },
    { what: '', line: 'idem-sim run {scenarios}/belgavi-refunds.yaml --actions 1e6 --shard 2/2 --out part-2.json' },
    { what: 'the parts as the report of the whole run, byte for byte', line: 'idem-sim merge part-1.json part-2.json' },
  ],
  schema: [
    { what: 'the JSON Schema on stdout', line: 'idem-sim schema' },
    { what: "to a file, for an editor (a scenario's first line: # yaml-language-server: $schema=scenario.schema.json)", line: 'idem-sim schema --out scenario.schema.json' },
  ],
  completion: [
    { what: 'bash (with the bash-completion package; or source it from ~/.bashrc)', line: 'idem-sim completion bash > ~/.local/share/bash-completion/completions/idem-sim' },
    { what: 'zsh (with fpath=(~/.zfunc $fpath) before compinit in ~/.zshrc)', line: 'idem-sim completion zsh > ~/.zfunc/_idem-sim' },
    { what: 'fish', line: 'idem-sim completion fish > ~/.config/fish/completions/idem-sim.fish' },
  ],
};

/** The bundled scenarios' folder (shipped with the package). */
const SCENARIOS = fileURLToPath(new URL('../../scenarios', import.meta.url));

/** The folder as a command typed in `cwd` names it: relative below it, else absolute. */
export function scenariosFolder(cwd: string): string {
  const rel = relative(cwd, SCENARIOS);
  return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? SCENARIOS : rel;
}

/** An example's command line as typed in `cwd`. */
export function exampleLine(example: Example, cwd: string): string {
  return example.line.replaceAll('{scenarios}', shellQuote(scenariosFolder(cwd)));
}

/** The help text's Examples block of `command` (empty if it has none). */
export function examplesHelp(command: string, cwd: string): string {
  const examples = EXAMPLES[command] ?? [];
  if (examples.length === 0) return '';
  const lines = examples.flatMap((e) => [...(e.what ? [`  # ${e.what}`] : []), `  ${exampleLine(e, cwd)}`]);
  return `\nExamples:\n${lines.join('\n')}`;
}
