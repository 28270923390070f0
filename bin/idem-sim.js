#!/usr/bin/env node
// Thin launcher: the compiled CLI lives in dist/ (built by `npm install` in a clone via the preprepare script, and by `npm pack`).
import { main } from '../dist/cli/main.js';

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

const code = await main(process.argv);
// Stopped by a signal (128 + its number), with nothing left to write: exit now rather than
// while the process winds down, when a second signal would meet no handler and kill it.
if (code > 128) process.exit(code);
process.exitCode = code;
