import { configDefaults, defineConfig } from 'vitest/config';

// Test tiers, one vitest project each, chosen by the file name's suffix. A file without one is
// unit, so no test drops out of `npm test` for lack of a tier; `--project <name>` runs one tier.
//   unit      test/**/*.test.ts     in-process through src/: no dist/, no service, no browser
//   e2e       *.e2e.test.ts         the built binary (bin/idem-sim.js runs dist/)
//   services  *.services.test.ts    a real Redis on 127.0.0.1:6379 and PostgreSQL on :5432
//   browser   *.browser.test.ts     Debian's Chromium through playwright-core
const TIERS = ['e2e', 'services', 'browser'] as const;
// A tier that needs a service or a browser checks for it first, so a file without one fails at once
// with what to start (README, "Set up") rather than with ECONNREFUSED or a launch error.
const SETUP: Partial<Record<(typeof TIERS)[number], string[]>> = { services: ['test/setup/services.ts'], browser: ['test/setup/browser.ts'] };

export default defineConfig({
  test: {
    testTimeout: 120_000,
    // Two files at a time: vitest's default (the cores less one) is one on this 2-core machine, and
    // most files wait on a spawned binary, a store or a browser rather than on the CPU (the suite
    // took 664 s one at a time).
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...TIERS.map((tier) => `test/**/*.${tier}.test.ts`)],
          // One module graph per worker, not per file: loading src/ again for each of the 90-odd
          // files was most of the tier's time (docs/contributing.md, "The unit tier's time"). A
          // file that mocks a module, or whose checks depend on state a module keeps for the
          // process, gets fresh modules before and after it (test/setup/unit.ts).
          isolate: false,
          setupFiles: ['test/setup/unit.ts'],
        },
      },
      // The services tier's files run one at a time: the probe measures a store's memory per record,
      // and another file's keys written or removed meanwhile made that measurement wrong (58 B once).
      ...TIERS.map((tier) => ({ extends: true as const, test: {
        name: tier, include: [`test/**/*.${tier}.test.ts`], setupFiles: SETUP[tier] ?? [], ...(tier === 'services' ? { fileParallelism: false } : {}),
      } })),
    ],
  },
});
