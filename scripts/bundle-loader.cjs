// The bundle's loader: part of dist/bundle/idem-sim.cjs (scripts/build-cli.mjs bundles it into the
// launcher's file), not a file of the package of its own. It loads the bundle's other files by
// their role ('main', 'cli/run', 'validator', ...), each with the V8 code cache that the build
// recorded beside it (`<file>.cache`), so that V8 neither parses nor compiles again what the cache
// holds (issue 22, start-up). A cache serves only when all of these hold, and is ignored silently
// otherwise (the file is then compiled from its source, as Node's require would):
//  - it is owned by the source file's owner and writable by no one the source is not writable by;
//  - it is at most CACHE_MAX_BYTES(source) long (checked before it is read);
//  - its header names this Node, V8 and architecture, and the SHA-256 of the source as read now
//    and of V8's data together: an edited source or a damaged cache is not used (V8 itself checks
//    only the source's length, and checks its data's checksum only in debug builds);
//  - V8 accepts its data (the same V8 flags).
// Nothing is written at run time: only the build records caches (recordCodeCache). The files hold
// no `import()` (which code that vm compiles cannot run without an experimental option): the build
// turns the program's `import()` of a package into importPackage, which the launcher runs.
'use strict';
const { closeSync, constants, fstatSync, openSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const { dirname, join } = require('node:path');

/** The cache file's format: one JSON line (at most HEAD_MAX_BYTES), then V8's data. */
const FORMAT = 1;
const HEAD_MAX_BYTES = 1024;
/** The longest cache read for a source of `bytes`: V8's data for a file was 0.6-1.3x its source. */
const CACHE_MAX_BYTES = (bytes) => HEAD_MAX_BYTES + 4 * bytes + (1 << 20);
/** The function that CommonJS code runs in, as Node's own loader wraps it. */
const WRAP = ['(function (exports, require, module, __filename, __dirname) { ', '\n});'];

const cachePath = (file) => file.replace(/\.cjs$/, '.cache');
const here = () => ({ node: process.version, v8: process.versions.v8, arch: process.arch });
const digest = (source, data) => require('node:crypto').createHash('sha256').update(source).update(data).digest('hex');

/** The file's source and its owner and mode. */
function readSource(file) {
  const fd = openSync(file, 'r');
  try {
    const { uid, mode } = fstatSync(fd);
    return { source: readFileSync(fd), uid, mode };
  } finally {
    closeSync(fd);
  }
}

/**
 * The cache beside `file`: { data } when it may serve, else why not ({ none } when there is none,
 * { refused } when it is there but may not serve).
 */
function cachedData(file, { source, uid, mode }) {
  let fd;
  try {
    fd = openSync(cachePath(file), constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return { none: 'no cache' };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.uid !== uid || (stat.mode & 0o022 & ~mode) !== 0) return { refused: 'not owned as the file is' };
    if (stat.size > CACHE_MAX_BYTES(source.length)) return { refused: 'too long' };
    const bytes = readFileSync(fd);
    const end = bytes.subarray(0, HEAD_MAX_BYTES).indexOf(10);
    const head = end < 0 ? undefined : JSON.parse(bytes.toString('latin1', 0, end));
    const now = here();
    if (head?.format !== FORMAT || head.node !== now.node || head.v8 !== now.v8 || head.arch !== now.arch) return { refused: 'made for another Node' };
    const data = bytes.subarray(end + 1);
    return head.sha256 === digest(source, data) ? { data } : { refused: 'not of this file, or damaged' };
  } catch {
    return { refused: 'unreadable' };
  } finally {
    closeSync(fd);
  }
}

/** Writes the cache of `file` whole, then renames it into place. */
function writeCache(file, source, data) {
  const head = JSON.stringify({ format: FORMAT, ...here(), sha256: digest(source, data) });
  const path = cachePath(file);
  writeFileSync(`${path}.${process.pid}.tmp`, Buffer.concat([Buffer.from(`${head}\n`, 'latin1'), data]));
  renameSync(`${path}.${process.pid}.tmp`, path);
}

/**
 * The loader of the bundle's files. `files`: each role's file name in this directory. `require`:
 * the launcher's own (the files lie beside it).
 */
function bundleLoader(files, dir, require) {
  const vm = require('node:vm');
  /** Each file loaded: what became of its cache, and, while recording, its script and source. */
  const scripts = new Map();
  let recording = false;

  function compiled(file) {
    const read = readSource(file);
    const cached = cachedData(file, read);
    const script = new vm.Script(`${WRAP[0]}${read.source.toString('utf8')}${WRAP[1]}`, { filename: file, ...(cached.data ? { cachedData: cached.data } : {}) });
    const cache = cached.data ? (script.cachedDataRejected ? 'refused: rejected by V8' : 'used') : cached.none ?? `refused: ${cached.refused}`;
    scripts.set(file, { cache, ...(recording ? { script, source: read.source } : {}) });
    return script;
  }

  /** The exports of the file of `role`, loaded once (require.cache holds it, as require would). */
  function load(role) {
    const name = files[role];
    if (name === undefined) throw new Error(`idem-sim's bundle has no file for ${role}: rebuild it (npm run build)`);
    const file = join(dir, name);
    if (require.cache[file]) return require.cache[file].exports;
    const Module = require('node:module');
    const module = new Module(file);
    module.filename = file;
    require.cache[file] = module;
    try {
      compiled(file).runInThisContext().call(module.exports, module.exports, Module.createRequire(file), module, file, dirname(file));
    } catch (e) {
      delete require.cache[file];
      throw e;
    }
    module.loaded = true;
    return module.exports;
  }

  /** For the build: at the process's exit, write the cache of every file loaded, with the functions compiled by then. */
  function recordCodeCache() {
    recording = true;
    process.on('exit', () => {
      for (const [file, { script, source }] of scripts) if (script) writeCache(file, source, script.createCachedData());
    });
  }

  /** What became of each loaded file's cache: `used`, `no cache`, or `refused: why` (for the tests). */
  const codeCacheUse = () => Object.fromEntries([...scripts].map(([file, { cache }]) => [file.slice(dir.length + 1), cache]));

  return { load, recordCodeCache, codeCacheUse };
}

module.exports = { bundleLoader };
