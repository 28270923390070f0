// Bundles the command line from tsc's dist/ (part of `npm run build`, after tsc), so that a command
// starts by reading a few files rather than resolving, reading and compiling some 300 ES modules of
// dist/ and node_modules (issue 22, start-up). CommonJS files, which Node loads without its ES
// module loader and which can load a file when code first needs it:
//   dist/bundle/idem-sim.cjs         what bin/idem-sim.js loads first: the stop signals, the test
//                                    pause, and the loader of the other files by their role
//                                    (scripts/bundle-loader.cjs), which knows each one's name
//   dist/bundle/main-<hash>.cjs      the command line and the simulation (scripts/bundle-plan.mjs)
//   dist/bundle/cli-run-<hash>.cjs   what `run` adds to main; a file for each command, and for each
//                                    other part that dist/ loads with `await import()`
//   dist/bundle/worker-<hash>.cjs    a simulation thread's script (dist/exec/worker.js), whole
//   dist/bundle/<leaf>-<hash>.cjs    a large part, loaded when first used (LEAVES)
//   dist/bundle/<name>-<hash>.cache  V8's code cache of a file, recorded by running the new files
//                                    (RECORD); bundle-loader.cjs says when one serves
// Every module keeps its place in the order things run: a module that dist/ loads with
// `await import()` (a command, a reporter) is still initialised only when that runs, and so is a
// package loaded through createRequire. bin/idem-sim.js uses the bundle only when it is newer than
// dist/cli/main.js (tsc rewrites that on every build), and dist/ itself otherwise; the package
// ships the bundle alone.
//   node scripts/build-cli.mjs
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { planFiles, prefixOf } from './bundle-plan.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const out = join(dist, 'bundle');

/** The launcher's modules: what listens before the program loads. The other files take them from it. */
const LAUNCHER = ['cli/signals.js', 'io/test-pause.js'];
/** The command line's entry, and a simulation thread's (a file of its own, whole). */
const MAIN = 'cli/main.js';
const WORKER = 'exec/worker.js';
/** The simulation's rooms, in main's file wherever they are loaded from (bundle-plan.mjs). */
const CORE = ['random', 'model', 'engine', 'results', 'exec'];
/** The command whose file comes first: what the commands share is in it (bundle-plan.mjs). */
const FIRST = ['cli/run.js'];
/**
 * Parts that many runs never use, each a file of its own loaded at its first use: the generated
 * scenario validator (half the program's code; `run` on the built-in defaults never validates),
 * and the packages loaded through createRequire.
 */
const LEAVES = { validator: 'scenario/validate.generated.js', yaml: 'yaml', 'cli-progress': 'cli-progress' };
/**
 * Packages left in node_modules: the key stores' drivers (probe only; pg's native part is
 * optional), the chart engine (charts only, large), and DDSketch's protobuf peer (not installed,
 * never called). vega and vega-lite are loaded with `await import()`, the others when required.
 */
const EXTERNAL = ['pg', 'ioredis', 'vega', 'vega-lite', 'protobufjs'];
/** Node's modules that its own start does not load, loaded when a function of theirs is first used. */
const LAZY_BUILTINS = ['crypto', 'worker_threads', 'child_process', 'os', 'timers/promises'];
/**
 * Modules replaced in the bundle. chalk's terminal probe (`#supports-color`, which loads node:tty
 * and node:os as chalk loads: 4 ms of a 0.2 s run) by "no colour": idem-sim gives every Chalk it
 * makes its level (src/io/streams.ts chalkFor) and never uses chalk's own instances, the only ones the
 * probe sets (test/rooms.test.ts holds src/ to that; test/package.e2e.test.ts: a run loads no tty).
 */
const REPLACED = { '#supports-color': 'export default { stdout: false, stderr: false };' };
/** The run whose compiled functions the code caches hold: with a key set, so the YAML parser and the validator load too. */
const RECORD = ['run', '--actions', '1000'];
/** Files of an earlier build are removed once this old: a command started with that build may still load one. */
const KEEP_OLD_MS = 60 * 60 * 1000;

const LAUNCHER_FILE = 'idem-sim.cjs';
const LOADER = join(root, 'scripts', 'bundle-loader.cjs');
const literal = (text) => JSON.stringify(text);
const posix = (path) => path.split(sep).join('/');
const require = createRequire(import.meta.url);
/** This file's URL, in a CommonJS file of the bundle. */
const BUNDLE_URL = "require('node:url').pathToFileURL(__filename).href";
/** The exports of the file of `role`, in any file of the bundle: the launcher's own, or through its loader. */
const fileExports = (role) => (role === 'launcher' ? `require(${literal(`./${LAUNCHER_FILE}`)})` : `require(${literal(`./${LAUNCHER_FILE}`)}).load(${literal(role)})`);
/** The leaf (its role) that holds a package or a module (its path from the project's root), if any. */
const leafOf = (id) => Object.keys(LEAVES).find((role) => LEAVES[role] === id || `dist/${LEAVES[role]}` === id);
/** The worker's file name, once built: main's code starts threads on it. */
let workerFile;

/**
 * A module whose exports are got from `expression` when one is first used (a getter each): a
 * leaf, or one of Node's modules. `names`: its exports.
 */
const lazyModule = (expression, names) => `let loaded;
const load = () => (loaded ??= ${expression});
for (const name of ${literal(names)}) Object.defineProperty(exports, name, { enumerable: true, get: () => load()[name] });
`;

/**
 * A dist/ module as the bundle needs it:
 *  - `await import('./x.js')` of its own modules becomes a require, which the bundle runs when it
 *    comes, as before; `await import('pkg')` (a package left in node_modules) is run by the
 *    launcher (importPackage), since code that vm compiles cannot run `import()`;
 *  - `createRequire(import.meta.url)('pkg')` loads the package's leaf file when called;
 *  - `import.meta.url` is the module's own place in dist/ again, so the files it finds beside
 *    itself (package.json, the scenarios, the lab's scripts) are found; a URL naming the
 *    worker's script names the worker's file.
 */
function rewritten(file, text) {
  const own = `new URL(${literal(posix(relative(out, file)))}, ${BUNDLE_URL}).href`;
  const bundleUrl = 'import_meta_url_of_the_bundle_file';
  return text
    .replace(/\bimport\((['"])(\.{1,2}\/[^'"]+)\1\)/g, (_, q, path) => `Promise.resolve().then(() => require(${q}${path}${q}))`)
    .replace(/\bimport\((['"])([^'".][^'"]*)\1\)/g, (_, q, id) => `${fileExports('launcher')}.importPackage(${q}${id}${q})`)
    .replace(/createRequire\(import\.meta\.url\)\((['"])([^'"]+)\1\)/g, (whole, q, id) => (leafOf(id) ? fileExports(leafOf(id)) : whole))
    .replace(/new URL\((['"])(\.{1,2}\/[^'"]+)\1, import\.meta\.url\)/g, (whole, q, path) => {
      const worker = join(dist, WORKER) === resolve(dirname(file), path);
      return worker ? `new URL(${literal(`./${workerFile}`)}, ${bundleUrl})` : whole;
    })
    .replaceAll('import.meta.url', own)
    .replaceAll(bundleUrl, BUNDLE_URL);
}

/** The exports of a dist/ module, as tsc writes them (`export const x`, `export function x`, `export default`). */
function exportsOf(path) {
  const text = readFileSync(join(dist, path), 'utf8');
  const names = [...text.matchAll(/^export (?:default|(?:const|let|function|class) ([\w$]+))/gm)].map((m) => m[1] ?? 'default');
  if (names.length === 0 || /^export \{/m.test(text)) throw new Error(`dist/${path}: its exports are not all written \`export const x\`, \`export function x\` or \`export default\`, which the bundle's leaves read`);
  return names;
}

/** Whether the module at `importer` imports the default export of `specifier`. */
function importsDefault(importer, specifier) {
  const text = readFileSync(importer, 'utf8');
  return [...text.matchAll(/\bimport\s+[\w$]+\s*(?:,\s*\{[^}]*\}\s*)?from\s*(['"])([^'"]+)\1/g)].some((m) => m[2] === specifier);
}

const ENTRY_NAME = 'entry-of-the-bundle.js';
const RESOLVING = { own: 'a resolve of the plugin itself' };

/**
 * The plugin of every file: dist/ modules rewritten; Node's lazy builtins got when used; leaves
 * taken from their files; and, in a file of the plan (`place`: its role, the plan and the graph's
 * inputs), each module that another file holds taken from that file's `modules`.
 */
function plugin(place) {
  const lazyBuiltin = new RegExp(`^(node:)?(${LAZY_BUILTINS.join('|')})$`);
  const taken = async (b, args) => {
    if (args.namespace !== 'file' || args.pluginData === RESOLVING || !args.importer.startsWith(root + sep) || args.importer.endsWith(ENTRY_NAME)) return undefined;
    const found = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: RESOLVING });
    if (found.errors.length > 0 || found.external || found.namespace !== 'file') return undefined;
    const path = posix(relative(root, found.path));
    if (leafOf(path)) return { path, namespace: 'leaf' };
    const owner = place?.plan.home.get(path);
    if (place === undefined || owner === place.role) return undefined;
    const from = posix(relative(root, args.importer));
    if (owner === undefined) throw new Error(`${path} (imported by ${from}) is in no file of the bundle's plan (scripts/bundle-plan.mjs)`);
    if (place.inputs[path]?.format === 'esm' && importsDefault(args.importer, args.path)) throw new Error(`${from} imports the default export of ${path}, which another file of the bundle holds and cannot give: import it by name`);
    return { path, namespace: 'taken', pluginData: owner };
  };
  return {
    name: 'idem-sim-bundle',
    setup(b) {
      b.onResolve({ filter: new RegExp(`^(${Object.keys(REPLACED).join('|')})$`) }, (args) => ({ path: args.path, namespace: 'replaced' }));
      b.onLoad({ filter: /.*/, namespace: 'replaced' }, (args) => ({ contents: REPLACED[args.path], loader: 'js' }));
      b.onResolve({ filter: lazyBuiltin }, (args) => (args.namespace === 'lazy' ? { path: args.path, external: true } : { path: args.path, namespace: 'lazy' }));
      b.onLoad({ filter: /.*/, namespace: 'lazy' }, (args) => ({ contents: lazyModule(`require(${literal(args.path)})`, Object.keys(require(args.path))), loader: 'js' }));
      // The launcher's file, required where it lies.
      b.onResolve({ filter: /^\.\/idem-sim\.cjs$/ }, (args) => ({ path: args.path, external: true }));
      b.onResolve({ filter: /.*/ }, (args) => taken(b, args));
      b.onLoad({ filter: /.*/, namespace: 'taken' }, (args) => ({ contents: `module.exports = ${fileExports(args.pluginData)}.modules[${literal(args.path)}];`, loader: 'js' }));
      b.onLoad({ filter: /.*/, namespace: 'leaf' }, (args) => ({ contents: lazyModule(fileExports(leafOf(args.path)), exportsOf(args.path.slice('dist/'.length))), loader: 'js' }));
      b.onLoad({ filter: /\.js$/ }, (args) => (args.path.startsWith(dist + sep) && !args.path.startsWith(out + sep)
        ? { contents: rewritten(args.path, readFileSync(args.path, 'utf8')), loader: 'js' }
        : undefined));
    },
  };
}

const OPTIONS = {
  absWorkingDir: root, bundle: true, platform: 'node', target: 'node20', external: EXTERNAL,
  minifyWhitespace: true, minifySyntax: true, legalComments: 'none', write: false, logLevel: 'warning',
};

/**
 * One CommonJS file from `entry` (a path, or the text of a module in dist/), as the plugin of
 * `place` makes it. `byNode`: Node's own loader loads it (the launcher, the worker's script), not
 * the launcher's loader, whose vm cannot run an `import()` that the file would keep.
 */
async function bundle(entry, place, byNode = false) {
  const result = await build({
    ...OPTIONS,
    ...(typeof entry === 'string' ? { entryPoints: [entry] } : { stdin: { contents: entry.contents, resolveDir: dist, sourcefile: ENTRY_NAME, loader: 'js' } }),
    format: 'cjs',
    outfile: join(out, 'out.cjs'),
    metafile: true,
    plugins: [plugin(place)],
  });
  const kept = Object.values(result.metafile.outputs).flatMap((o) => o.imports).filter((i) => i.kind === 'dynamic-import');
  if (!byNode && kept.length > 0) throw new Error(`${typeof entry === 'string' ? posix(relative(root, entry)) : place.role}: keeps \`import(${kept.map((i) => i.path).join('), import(')})\`, which the launcher's loader cannot run: write it \`await import('pkg')\` in src/ (build-cli.mjs gives it to the launcher), or leave the package out of EXTERNAL`);
  return result.outputFiles[0].contents;
}

/** The metafile's inputs of the command line as dist/ has it: each module's imports, `await import()` kept (leaves left out). */
async function graph() {
  const leavesOut = { name: 'idem-sim-leaves', setup(b) { b.onResolve({ filter: /^\.{1,2}\// }, (args) => (leafOf(posix(relative(root, resolve(args.resolveDir, args.path)))) ? { path: args.path, external: true } : undefined)); } };
  const result = await build({ ...OPTIONS, entryPoints: [join(dist, MAIN)], format: 'esm', outfile: join(out, 'graph.js'), metafile: true, plugins: [leavesOut] });
  return result.metafile.inputs;
}

/** A file of the plan: its modules that other files take, by getters that initialise each when first used; main's file also exports `main`. */
const planned = (role, plan) => [
  ...(role === 'main' ? [`export { main } from ${literal(join(dist, MAIN))};`] : []),
  'export const modules = {};',
  ...[...plan.exported.get(role)].map((path) => `Object.defineProperty(modules, ${literal(path)}, { enumerable: true, get: () => require(${literal(join(root, path))}) });`),
].join('\n');

/** The launcher's file: its modules for the others to take (one copy of each), and the loader of the other files. */
const launcher = (plan, files) => {
  const mine = [...plan.home].filter(([, role]) => role === 'launcher').map(([path]) => path);
  return `${mine.map((path, k) => `import * as m${k} from ${literal(join(root, path))};`).join('\n')}
export const modules = { ${mine.map((path, k) => `${literal(path)}: m${k}`).join(', ')} };
export { StopSignals } from ${literal(join(dist, 'cli/signals.js'))};
export { pauseForTest } from ${literal(join(dist, 'io/test-pause.js'))};
import { bundleLoader } from ${literal(LOADER)};
export const { load, recordCodeCache, codeCacheUse } = bundleLoader(${literal(files)}, __dirname, require);
export const loadMain = () => load('main');
export const importPackage = (id) => import(id);
`;
};

/**
 * Records the code caches: runs bin/idem-sim.js with RECORD on the new files, with the launcher
 * told to write, at the exit, the cache of each file it loaded. The caches written.
 */
function record(names) {
  const bin = join(root, 'bin', 'idem-sim.js');
  const code = `require(${literal(join(out, LAUNCHER_FILE))}).recordCodeCache();
process.argv = [process.argv[0], ${literal(bin)}, ...${literal(RECORD)}];
require(${literal(bin)});`;
  // Without NODE_OPTIONS: V8 refuses a cache made under other V8 flags, and a command runs without them.
  const env = { ...process.env, NODE_OPTIONS: '' };
  const run = spawnSync(process.execPath, ['-e', code], { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`the new bundle failed \`idem-sim ${RECORD.join(' ')}\` (exit ${run.status ?? run.signal}):\n${run.stderr}`);
  return names.map((name) => name.replace(/\.cjs$/, '.cache')).filter((name) => existsSync(join(out, name)));
}

// Each file but the launcher is named by its text's hash: a command that started with one build
// loads that build's files to its end, whatever another build writes meanwhile. The files refer to
// each other by role, through the launcher (built last, when all names are known).
const files = {};
const names = {};
const named = (role, contents) => {
  const file = `${prefixOf(role)}-${createHash('sha256').update(contents).digest('hex').slice(0, 12)}.cjs`;
  files[file] = contents;
  names[role] = file;
};
for (const [role, id] of Object.entries(LEAVES)) named(role, await bundle(id.endsWith('.js') ? join(dist, id) : require.resolve(id)));
named('worker', await bundle(join(dist, WORKER), undefined, true));
workerFile = names.worker;
const inputs = await graph();
const plan = planFiles(inputs, { launcher: LAUNCHER.map((p) => `dist/${p}`), main: `dist/${MAIN}`, core: CORE, first: FIRST.map((p) => `dist/${p}`) });
for (const role of plan.files.keys()) named(role, await bundle({ contents: planned(role, plan) }, { role, plan, inputs }));
files[LAUNCHER_FILE] = await bundle({ contents: launcher(plan, names) }, { role: 'launcher', plan, inputs }, true);

// Each file written whole and then renamed into place, the launcher last; then the caches.
mkdirSync(out, { recursive: true });
for (const [name, contents] of Object.entries(files)) {
  const path = join(out, name);
  writeFileSync(`${path}.${process.pid}.tmp`, contents);
  renameSync(`${path}.${process.pid}.tmp`, path);
}
const caches = record(Object.keys(files));
const current = new Set([...Object.keys(files), ...caches]);
for (const name of readdirSync(out)) {
  const path = join(out, name);
  if (!current.has(name) && Date.now() - statSync(path).mtimeMs > KEEP_OLD_MS) rmSync(path, { force: true });
}
const kb = (name) => `${name} ${Math.round(statSync(join(out, name)).size / 1024)} KB`;
console.error(`dist/bundle: ${Object.keys(files).map(kb).join(', ')}`);
console.error(`code caches (idem-sim ${RECORD.join(' ')}, Node ${process.version}): ${caches.map(kb).join(', ')}`);
