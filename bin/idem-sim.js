#!/usr/bin/env node
// Thin launcher: the compiled CLI lives in dist/ (built by `npm install` via the prepare script).
import { main } from '../dist/cli/main.js';

process.exitCode = await main(process.argv);
