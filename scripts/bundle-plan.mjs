// Which file of dist/bundle/ holds each module of the command line (scripts/build-cli.mjs), from
// one esbuild pass over dist/cli/main.js that leaves `await import()` as it is (its metafile: each
// module's imports and their kinds). In order:
//  - the launcher's file: the launcher's modules and what they import (what listens for signals
//    before the program loads);
//  - main: what main.js imports before it runs, all the way down, and the simulation's rooms
//    (`core`) wherever they are loaded from, so that the hot loop never calls from one file into
//    another (such a call goes through getters);
//  - then a file for each module that another loads with `await import()` (a command, a reporter,
//    a store's driver), in the order they are found (`first`, then main.js's own in its order):
//    that module and what it imports that no earlier file holds. A command's file holds what it
//    alone adds; what two commands share is in the first one's file (run's, the command whose
//    start-up counts most), which the other loads when it first needs it.
// Each module is in one file only; the other files take it from there (`exported`). A file loads
// when a module of it is first needed; what the launcher and main.js import is initialised as they
// load, and every other module when first used, as in dist/.

const isStatic = (kind) => kind !== 'dynamic-import';

/**
 * The role of a file that starts at `entry`, and the prefix of its name: dist/cli/run.js is cli/run
 * (cli-run-<hash>.cjs); a package's module is the package and the module's name
 * (node_modules/@scope/pkg/dist/client/index.js: @scope/pkg/index, scope-pkg-index-<hash>.cjs).
 */
export const roleOf = (entry) => {
  const pkg = /^node_modules\/((?:@[^/]+\/)?[^/]+)\/(?:.*\/)?([^/]+)\.[cm]?js$/.exec(entry);
  return pkg ? `${pkg[1]}/${pkg[2]}` : entry.replace(/^dist\//, '').replace(/\.js$/, '');
};
export const prefixOf = (role) => role.replaceAll('@', '').replaceAll('/', '-');

/**
 * The plan: `home` (module path, relative to the project, to its file's role), `files` (each role's
 * modules, main first, in the order found) and `exported` (each role's modules that another file
 * imports). `inputs`: the metafile's; `launcher`, `main`: entry paths; `core`: folders of dist/;
 * `first`: the modules loaded with `await import()` whose files come first, before main.js's order.
 */
export function planFiles(inputs, { launcher, main, core, first }) {
  for (const path of [...launcher, main, ...first]) if (!(path in inputs)) throw new Error(`${path} is not a module of the command line: see scripts/build-cli.mjs`);
  const importsOf = (path, kinds) => (inputs[path]?.imports ?? []).filter((i) => !i.external && kinds(i.kind)).map((i) => i.path);
  const loadedLater = (paths) => paths.flatMap((path) => importsOf(path, (kind) => !isStatic(kind)));
  const home = new Map();
  const files = new Map();
  /** `roots` and their static imports, all the way down, that no file holds yet, given to `role`. */
  const give = (role, roots) => {
    if (files.has(role)) throw new Error(`two files of the bundle would be called ${role}: ${roots[0]} and ${files.get(role)[0]}`);
    const mine = [];
    const stack = [...roots].reverse();
    while (stack.length > 0) {
      const path = stack.pop();
      if (home.has(path) || !(path in inputs)) continue;
      home.set(path, role);
      mine.push(path);
      stack.push(...importsOf(path, isStatic).reverse());
    }
    if (mine.length > 0) files.set(role, mine);
  };
  const reachable = new Set();
  for (const stack = [main]; stack.length > 0;) {
    const path = stack.pop();
    if (reachable.has(path)) continue;
    reachable.add(path);
    stack.push(...importsOf(path, () => true));
  }
  give('launcher', launcher);
  give('main', [main, ...[...reachable].filter((p) => core.some((room) => p.startsWith(`dist/${room}/`)))]);
  // Breadth first over `await import()`: `first`, main.js's own in its order, then the rest of
  // main's, then each new file's, its entry's first.
  const queue = [...first, ...loadedLater(files.get('main'))];
  for (let k = 0; k < queue.length; k++) {
    if (home.has(queue[k])) continue;
    const role = roleOf(queue[k]);
    give(role, [queue[k]]);
    queue.push(...loadedLater(files.get(role) ?? []));
  }
  const exported = new Map([...files.keys()].map((role) => [role, new Set()]));
  for (const [path, role] of home) {
    for (const target of importsOf(path, () => true)) if (home.has(target) && home.get(target) !== role) exported.get(home.get(target)).add(target);
  }
  files.delete('launcher');
  return { home, files, exported };
}
