// The cache key of the command line that action.yml builds in its own folder, written as the step's
// outputs (`key=...`, `dir=...`, appended to $GITHUB_OUTPUT by the step):
//   key  idem-sim-<os>-<arch>-node<major>-<hash>: the hash of every file the install and the build
//        read (package.json, the lock file, tsconfig.json, bin/, scripts/, src/), so a new ref of the
//        action builds afresh and the same ref restores what an earlier job built;
//   dir  the action's folder as an absolute path without `.` segments (GitHub gives `uses: ./` the
//        path `<workspace>/./`, which actions/cache's path patterns refuse).
// GitHub's hashFiles() cannot serve: it hashes files of the workspace only, never an action's own.
//   node scripts/action-cache-key.mjs >> "$GITHUB_OUTPUT"
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const INPUTS = ['package.json', 'package-lock.json', 'tsconfig.json', 'bin', 'scripts', 'src'];

/** Every file at or below `path` (relative to the root), in a fixed order. */
function filesOf(path) {
  const full = join(root, path);
  let entries;
  try {
    entries = readdirSync(full, { withFileTypes: true });
  } catch (e) {
    if (e.code === 'ENOTDIR') return [path];
    throw e;
  }
  return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((e) => (e.isDirectory() ? filesOf(join(path, e.name)) : e.isFile() ? [join(path, e.name)] : []));
}

const hash = createHash('sha256');
for (const file of INPUTS.flatMap(filesOf)) {
  hash.update(relative(root, join(root, file)).split(sep).join('/')).update('\0').update(readFileSync(join(root, file))).update('\0');
}
const os = process.env.RUNNER_OS ?? process.platform;
const arch = process.env.RUNNER_ARCH ?? process.arch;
const major = process.versions.node.split('.')[0];
process.stdout.write(`key=idem-sim-${os}-${arch}-node${major}-${hash.digest('hex').slice(0, 32)}\ndir=${root}\n`);
