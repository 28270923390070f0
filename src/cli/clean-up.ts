/** `idem-sim probe --clean-up --store URL [--force]`: removes what killed probes left behind. */
import { InputError } from '../scenario/errors.js';
import { descriptorOf, STORE_EXAMPLES } from '../stores/registry.js';
import { toolVersion, type Io } from './io.js';
import { asInputError, type ProbeOptions } from './probe.js';
import { num } from '../report/format.js';

/** `probe --clean-up --store URL [--force]`: removes what probes left behind (src/stores/lifetime.ts). */
export async function cleanUpCommand(files: string[], opts: ProbeOptions, io: Io): Promise<number> {
  const extra = files.length > 0 ? files[0] : (['actions', 'seed', 'set', 'speedup', 'connections', 'responseBytes', 'records', 'keep', 'out'] as const)
    .filter((k) => opts[k] !== undefined).map((k) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`)[0];
  if (extra !== undefined) {
    throw new InputError({ source: '--clean-up' }, '', `takes only --store, --force and --json, not ${files.length > 0 ? 'a scenario' : extra}`, 'Write idem-sim probe --clean-up --store URL (add --force to remove leftovers that have not expired yet).');
  }
  if (opts.store === undefined) {
    throw new InputError({ source: '--clean-up' }, '', '--store is missing', `Name the store to clean up, such as ${STORE_EXAMPLES}.`);
  }
  const { cleanUpStore } = await import('../stores/open.js');
  let found: Awaited<ReturnType<typeof cleanUpStore>>;
  try {
    found = await cleanUpStore(opts.store, opts.force === true);
  } catch (e) {
    throw asInputError(e);
  }
  const { display, kind, report } = found;
  if (opts.json) {
    io.stdout.write(`${JSON.stringify({ tool: 'idem-sim', kind: 'probe-clean-up', version: toolVersion(), store: display, force: opts.force === true, ...report }, null, 2)}\n`);
    return 0;
  }
  const lines = [
    ...report.removed.map((r) => `removed ${r.namespace} (${num(r.objects)} ${descriptorOf(kind).objectsNoun})`),
    ...report.left.map((l) => `left ${l.namespace} (${l.reason})`),
  ];
  if (lines.length === 0) lines.push('no probe leftovers found');
  io.stdout.write(`${display}: ${lines.join(`\n${display}: `)}\n`);
  return 0;
}
