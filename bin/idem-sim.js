#!/usr/bin/env node
// Thin launcher: the compiled CLI lives in dist/ (built by `npm install` in a clone via the
// preprepare script, and by `npm pack`). A CommonJS file (bin/package.json), as is the bundle it
// loads: Node starts one without its ES module loader.
//
// The bundle, dist/bundle/ (scripts/build-cli.mjs), is read from a few files where dist/'s
// modules are some 300, a command's files only, each with the V8 code cache the build recorded
// beside it (scripts/bundle-loader.cjs): it serves when it was built after dist/ (tsc rewrites
// dist/cli/main.js on every build), and dist/ itself when tsc ran since.
'use strict';
const { statSync } = require('node:fs');
const { join } = require('node:path');

const modified = (file) => statSync(join(__dirname, '..', 'dist', file), { throwIfNoEntry: false })?.mtimeMs;
const bundle = (modified('bundle/idem-sim.cjs') ?? -1) >= (modified('cli/main.js') ?? 0) ? require('../dist/bundle/idem-sim.cjs') : undefined;

async function launch() {
  // First of all, listen for SIGINT, SIGTERM and SIGHUP (signals.js loads little): a signal while
  // the program loads stops it cleanly too (exit 130 / 143 / 129, nothing written), and one after
  // the outcome is settled exits with the outcome's status, never by the signal's default action.
  const { StopSignals } = bundle ?? await import('../dist/cli/signals.js');
  const stops = new StopSignals();
  const { pauseForTest } = bundle ?? await import('../dist/io/test-pause.js');
  pauseForTest('listening');
  const { main } = bundle ? bundle.loadMain() : await import('../dist/cli/main.js');

  // A reader that stops early (`| head`) closes the pipe: that is not an error. Any other
  // failure to write the data (a full disk) leaves it incomplete: say so in one line and exit 2,
  // as for an unwritable --out file.
  process.stdout.on('error', (e) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    const why = e.code === 'ENOSPC' ? 'no space left on the device, ENOSPC' : (e.code ?? e.message);
    process.stderr.write(`idem-sim: error: cannot write to standard output (${why}); what was written is incomplete. Send it somewhere with room.\n`);
    process.exit(2);
  });
  // Errors and progress have nowhere else to go when standard error fails: the exit status still tells.
  process.stderr.on('error', () => {});

  const code = await main(process.argv, undefined, stops);
  // Stopped by a signal (128 + its number), with nothing left to write: exit now rather than
  // while the process winds down.
  if (code > 128) process.exit(code);
  // The outcome is settled: a signal while the process winds down (workers end) exits with it.
  stops.settle(code);
  process.exitCode = code;
  pauseForTest('settled');
  // Then exit as soon as standard output has taken its bytes, rather than when idle worker threads
  // and timers have wound down: the shorter that end, the shorter the moment, in Node's own
  // teardown, where a signal finds no handler and ends the process by its default action.
  // A failed standard output (a full device) is its 'error' handler's to end, with exit 2.
  process.stdout.write('', (error) => { if (!error && !process.stdout.destroyed && !process.stdout.errored) process.exit(code); });
}

launch();
