/** `idem-sim missions`: the missions (the guide's four, and inbound delivery's), bundled in scenarios/, with a hint each. */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { relative } from 'node:path';
import type { Io } from '../io/streams.js';
import { loadScenario } from './shared/load.js';

/** The bundled scenarios directory (shipped with the package). */
export const SCENARIOS_DIR = fileURLToPath(new URL('../../scenarios/', import.meta.url));

export function missionsCommand(io: Io): number {
  const files = readdirSync(SCENARIOS_DIR).filter((f) => /^mission-.*\.ya?ml$/.test(f)).sort();
  const lines = files.map((f, i) => {
    const path = relative(process.cwd(), `${SCENARIOS_DIR}${f}`) || f;
    const { description, hint } = loadScenario(path, []);
    return [`${i + 1}. ${description ?? f}`, `   idem-sim check ${path}`, ...(hint ? [`   hint: ${hint}`] : [])].join('\n');
  });
  io.stdout.write(`${lines.join('\n\n')}\n\nEach mission fails its check as shipped; change its settings until it passes.\nOne solution for each is in ${relative(process.cwd(), `${SCENARIOS_DIR}solutions`) || 'solutions'}/.\n`);
  return 0;
}
