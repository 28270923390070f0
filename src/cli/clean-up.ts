/** `idem-sim probe --clean-up --store URL [--force]`: removes what killed probes left behind. */
import { InputError } from '../scenario/errors.js';
import { descriptorOf, STORE_EXAMPLES } from '../stores/registry.js';
import { toolVersion, type Io } from '../io/streams.js';
import { asInputError, type ProbeSettings } from './probe.js';
import { num } from '../report/format.js';

/** `probe --clean-up --store URL [--force]`: removes what probes left behind (src/stores/lifetime.ts). */
export async function cleanUpCommand(files: string[], s: ProbeSettings, io: Io): Promise<number> {
  const probing = {
    '--actions': s.actions !== undefined, '--seed': s.seed !== undefined, '--set': s.scenario.set.length > 0, '--speedup': s.speedup !== undefined,
    '--connections': s.connections !== undefined, '--response-bytes': s.responseBytes !== undefined, '--records': s.records !== undefined, '--keep': s.keep,
    '--out': s.output.out !== undefined,
  };
  const extra = files.length > 0 ? files[0] : Object.entries(probing).find(([, given]) => given)?.[0];
  if (extra !== undefined) {
    throw new InputError({ source: '--clean-up' }, '', `takes only --store, --force and --json, not ${files.length > 0 ? 'a scenario' : extra}`, 'Write idem-sim probe --clean-up --store URL (add --force to remove leftovers that have not expired yet).');
  }
  if (s.store === undefined) {
    throw new InputError({ source: '--clean-up' }, '', '--store is missing', `Name the store to clean up, such as ${STORE_EXAMPLES}.`);
  }
  const { cleanUpStore } = await import('../stores/open.js');
  let found: Awaited<ReturnType<typeof cleanUpStore>>;
  try {
    found = await cleanUpStore(s.store, s.force);
  } catch (e) {
    throw asInputError(e);
  }
  const { display, kind, report } = found;
  if (s.output.json) {
    io.stdout.write(`${JSON.stringify({ tool: 'idem-sim', kind: 'probe-clean-up', version: toolVersion(), store: display, force: s.force, ...report }, null, 2)}\n`);
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
