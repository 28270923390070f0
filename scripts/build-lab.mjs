// Bundles the lab for the browser (part of `npm run build`): the engine, from the same
// src/model and src/scenario the CLI runs, into dist/browser/lab-engine.js (a Web Worker's script),
// and the page's script into dist/browser/lab-ui.js. `idem-sim lab` inlines both into its page.
//   node scripts/build-lab.mjs
import { build } from 'esbuild';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist/browser');

/**
 * Node's modules in code the bundle reaches but never calls in a browser: the YAML loader's
 * createRequire (document.ts loads the yaml package lazily), and the file and OS functions of
 * the CLI modules whose checks the page shares (options.ts's seedOption). createRequire gives
 * the bundled yaml package; every other function throws if it is ever called (as does
 * protobufjs, below).
 */
const NODE_SHIMS = {
  'node:module': `import * as yaml from 'yaml';
export function createRequire() {
  return (id) => { if (id === 'yaml') return yaml; throw new Error('the lab bundles no ' + id); };
}`,
  other: `module.exports = new Proxy({}, { get: (_, name) => name === '__esModule' ? false : () => { throw new Error('not in a browser: ' + String(name)); } });`,
};

const nodeShims = {
  name: 'node-shims',
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (args) => ({ path: args.path, namespace: 'node-shim' }));
    // DDSketch's protobuf serialisation (toProto, fromProto), which no run calls: its peer
    // dependency is not installed.
    b.onResolve({ filter: /^protobufjs\/minimal$/ }, (args) => ({ path: args.path, namespace: 'node-shim' }));
    b.onLoad({ filter: /.*/, namespace: 'node-shim' }, (args) => ({
      contents: NODE_SHIMS[args.path] ?? NODE_SHIMS.other,
      loader: 'js',
      resolveDir: root,
    }));
  },
};

/** One browser script: `entry` (a TypeScript file under src/lab) into dist/browser/lab-`name`.js. */
async function bundle(entry, name) {
  const result = await build({
    entryPoints: [join(root, entry)],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    charset: 'utf8',
    write: false,
    metafile: true,
    define: { 'import.meta.url': '"file:///idem-sim-lab/"' },
    plugins: [nodeShims],
    logLevel: 'warning',
  });
  const [file] = result.outputFiles;
  // The page inlines the script: it must not close its own <script> element.
  if (/<\/script|<!--/i.test(file.text)) throw new Error(`${name}.js holds "</script" or "<!--", which would end or garble its element in the page`);
  writeFileSync(join(out, `lab-${name}.js`), file.text);
  return { name, bytes: file.contents.length, inputs: Object.keys(result.metafile.inputs).length };
}

mkdirSync(out, { recursive: true });
const built = [await bundle('src/lab/worker.ts', 'engine'), await bundle('src/lab/ui/main.ts', 'ui')];
for (const b of built) console.error(`dist/browser/lab-${b.name}.js: ${Math.round(b.bytes / 1024)} KB from ${b.inputs} modules`);
