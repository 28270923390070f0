// Writes test/golden/<step>.out from the built binary: the outputs test/golden.e2e.test.ts pins.
// Run it only when an output is meant to change, and say why in the commit.
//   node scripts/golden.mjs [ROOT]   (ROOT: a built checkout to take the outputs from; default this one)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = resolve(fileURLToPath(new URL('..', import.meta.url)));
const root = resolve(process.argv[2] ?? here);
const { steps } = JSON.parse(readFileSync(join(here, 'test/golden/commands.json'), 'utf8'));
const tmp = mkdtempSync(join(tmpdir(), 'idem-sim-golden-'));
try {
  for (const step of steps) {
    const args = step.args.map((a) => a.replaceAll('{tmp}', tmp));
    const r = spawnSync(process.execPath, [join(root, 'bin/idem-sim.js'), ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 1 << 28 });
    if (r.status !== (step.status ?? 0)) throw new Error(`${step.name}: exit ${r.status}\n${r.stderr}`);
    if (step.setup) continue;
    const text = step.keep ? readFileSync(join(tmp, step.keep), 'utf8') : r.stdout;
    writeFileSync(join(here, 'test/golden', `${step.name}.out`), text.replaceAll(tmp, '{tmp}'));
    console.error(`${step.name}: ${text.length} characters`);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
