// Bundles the command line from tsc's dist/ (part of `npm run build`, after tsc), so that a command
// starts by reading a few files rather than resolving, reading and compiling some 300 ES modules of
// dist/ and node_modules (issue 22, start-up). CommonJS files, which Node loads without its ES
// module loader and which can load a file when code first needs it:
//   dist/bundle/idem-sim.cjs       what bin/idem-sim.js loads first: the stop signals and the test pause
//   dist/bundle/main-<hash>.cjs    the command line (dist/cli/main.js and all it loads)
//   dist/bundle/worker-<hash>.cjs  a simulation thread's script (dist/exec/worker.js)
//   dist/bundle/<leaf>-<hash>.cjs  a large part, loaded when first used (LEAVES)
// Every module keeps its place in the order things run: a module that dist/ loads with
// `await import()` (a command, a reporter) is still initialised only when that runs, and so is a
// package loaded through createRequire. bin/idem-sim.js uses the bundle only when it is newer than
// dist/cli/main.js (tsc rewrites that on every build), and dist/ itself otherwise; the package
// ships the bundle alone.
//   node scripts/build-cli.mjs
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const out = join(dist, 'bundle');

/** The launcher's file: what listens before the program loads. main.cjs takes these modules from it. */
const LAUNCHER = ['cli/signals.js', 'cli/test-pause.js'];
/** The program's files, each from its entry module in dist/. */
const PROGRAM = { worker: 'exec/worker.js', main: 'cli/main.js' };
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
const LAZY_BUILTINS = ['crypto', 'worker_threads', 'child_process'];
/** Files of an earlier build are removed once this old: a command started with that build may still load one. */
const KEEP_OLD_MS = 60 * 60 * 1000;

const literal = (text) => JSON.stringify(text);
const posix = (path) => path.split(sep).join('/');
const require = createRequire(import.meta.url);
/** This file's URL, in a CommonJS file of the bundle. */
const BUNDLE_URL = "require('node:url').pathToFileURL(__filename).href";
/** The name of each file built so far (`./name-<hash of its text>.cjs`), by its entry: a leaf's module or package, or `worker`. */
const fileOf = {};
const leafOf = (path) => (Object.values(LEAVES).includes(path) ? fileOf[path] : undefined);

/**
 * A module whose exports are got from `file` when one is first used (a getter each): a leaf, or
 * one of Node's modules. `names`: its exports.
 */
const lazyModule = (file, names) => `let loaded;
const load = () => (loaded ??= require(${literal(file)}));
for (const name of ${literal(names)}) Object.defineProperty(exports, name, { enumerable: true, get: () => load()[name] });
`;

/**
 * A dist/ module as the bundle needs it:
 *  - `await import('./x.js')` of its own modules becomes a require, which the bundle runs when it
 *    comes, as before (an `await import()` of a package stays);
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
    .replace(/createRequire\(import\.meta\.url\)\((['"])([^'"]+)\1\)/g, (whole, q, id) => (leafOf(id) ? `require(${literal(leafOf(id))})` : whole))
    .replace(/new URL\((['"])(\.{1,2}\/[^'"]+)\1, import\.meta\.url\)/g, (whole, q, path) => {
      const worker = join(dist, PROGRAM.worker) === resolve(dirname(file), path);
      return worker ? `new URL(${literal(fileOf.worker)}, ${bundleUrl})` : whole;
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

/**
 * The plugin of every file: dist/ modules rewritten; `taken` (dist/ modules that an earlier file
 * holds: path -> that file) and the leaves taken from their files; the lazy builtins got when used.
 */
function plugin(taken) {
  const lazyBuiltin = new RegExp(`^(node:)?(${LAZY_BUILTINS.join('|')})$`);
  return {
    name: 'idem-sim-bundle',
    setup(b) {
      b.onResolve({ filter: lazyBuiltin }, (args) => (args.namespace === 'lazy' ? { path: args.path, external: true } : { path: args.path, namespace: 'lazy' }));
      b.onLoad({ filter: /.*/, namespace: 'lazy' }, (args) => ({ contents: lazyModule(args.path, Object.keys(require(args.path))), loader: 'js' }));
      // The bundle's own files, required where they lie.
      b.onResolve({ filter: /^\.\/[\w-]+\.cjs$/ }, (args) => ({ path: args.path, external: true }));
      b.onResolve({ filter: /^\.{1,2}\// }, (args) => {
        if (args.namespace !== 'file' || !args.importer.startsWith(dist + sep)) return undefined;
        const path = posix(relative(dist, resolve(dirname(args.importer), args.path)));
        if (taken.has(path)) return { path, namespace: 'taken' };
        if (leafOf(path)) return { path, namespace: 'leaf' };
        return undefined;
      });
      b.onLoad({ filter: /.*/, namespace: 'taken' }, (args) => ({ contents: `module.exports = require(${literal(taken.get(args.path))}).modules[${literal(args.path)}];`, loader: 'js' }));
      b.onLoad({ filter: /.*/, namespace: 'leaf' }, (args) => ({ contents: lazyModule(leafOf(args.path), exportsOf(args.path)), loader: 'js' }));
      b.onLoad({ filter: /\.js$/ }, (args) => (args.path.startsWith(dist + sep) && !args.path.startsWith(out + sep)
        ? { contents: rewritten(args.path, readFileSync(args.path, 'utf8')), loader: 'js' }
        : undefined));
    },
  };
}

const ENTRY_NAME = 'entry-of-the-bundle.js';

/** One CommonJS file from `entry` (a path, or { contents } of a module in dist/). */
async function bundle(entry, taken = new Map()) {
  const result = await build({
    ...(typeof entry === 'string' ? { entryPoints: [entry] } : { stdin: { ...entry, resolveDir: dist, sourcefile: ENTRY_NAME, loader: 'js' } }),
    absWorkingDir: root,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: EXTERNAL,
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    write: false,
    outfile: join(out, 'out.cjs'),
    metafile: true,
    plugins: [plugin(taken)],
    logLevel: 'warning',
  });
  const modules = Object.keys(result.metafile.inputs).filter((p) => p.startsWith('dist/') && !p.startsWith('dist/bundle/') && p !== `dist/${ENTRY_NAME}`).map((p) => p.slice('dist/'.length));
  return { contents: result.outputFiles[0].contents, modules };
}

/** The dist/ modules of the launcher's file: signals.js and test-pause.js, and what they load. */
async function launcherModules() {
  return (await bundle({ contents: LAUNCHER.map((p) => `import ${literal(`./${p}`)};`).join('\n') })).modules;
}

/**
 * The launcher's file: the namespaces of its modules, for main's file to take (one copy of each:
 * the pending outputs that a signal removes are main's), and loadMain(), which loads `main`.
 */
async function launcher(modules, main) {
  const contents = `${modules.map((p, k) => `import * as m${k} from ${literal(`./${p}`)};`).join('\n')}
export const modules = { ${modules.map((p, k) => `${literal(p)}: m${k}`).join(', ')} };
export { StopSignals } from './cli/signals.js';
export { pauseForTest } from './cli/test-pause.js';
export const loadMain = () => require(${literal(main)});
`;
  return bundle({ contents });
}

// Leaves first, then the worker's file and main.cjs, which name them, then the launcher, which
// names main's. Each file but the launcher is named by its text's hash: a command that started
// with one build loads that build's files to its end, whatever another build writes meanwhile.
const files = {};
const named = (name, contents) => {
  const file = `${name}-${createHash('sha256').update(contents).digest('hex').slice(0, 12)}.cjs`;
  files[file] = contents;
  return `./${file}`;
};
for (const [name, path] of Object.entries(LEAVES)) fileOf[path] = named(name, (await bundle(path.endsWith('.js') ? join(dist, path) : require.resolve(path))).contents);
const launched = await launcherModules();
const taken = new Map(launched.map((p) => [p, './idem-sim.cjs']));
fileOf.worker = named('worker', (await bundle(join(dist, PROGRAM.worker))).contents);
fileOf.main = named('main', (await bundle(join(dist, PROGRAM.main), taken)).contents);
files['idem-sim.cjs'] = (await launcher(launched, fileOf.main)).contents;

// Each file written whole and then renamed into place, the launcher last.
mkdirSync(out, { recursive: true });
for (const [name, contents] of Object.entries(files)) {
  const path = join(out, name);
  writeFileSync(`${path}.${process.pid}.tmp`, contents);
  renameSync(`${path}.${process.pid}.tmp`, path);
}
for (const name of readdirSync(out)) {
  const path = join(out, name);
  if (!(name in files) && Date.now() - statSync(path).mtimeMs > KEEP_OLD_MS) rmSync(path, { force: true });
}
console.error(`dist/bundle: ${Object.entries(files).map(([name, contents]) => `${name} ${Math.round(contents.length / 1024)} KB`).join(', ')}`);
