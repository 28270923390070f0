/** `--seed` as the command line and the lab take it: printable, not empty. */
import { InputError } from './errors.js';
import { SEED_FORM, SEED_TEXT } from './printable.js';

/** The seed used when neither --seed nor the scenario file gives one (the CLI and the lab). */
export const DEFAULT_SEED = '1';

/** `--seed`, which must not be empty. */
export function seedOption(seed: string | undefined): string | undefined {
  if (seed !== undefined && seed.trim() === '') {
    throw new InputError({ source: '--seed' }, '', 'the seed is empty', 'Give a seed such as --seed 42 or --seed nightly-run.');
  }
  if (seed !== undefined && !SEED_TEXT.test(seed)) {
    throw new InputError({ source: '--seed' }, '', `the seed is not ${SEED_FORM}`, 'Give a seed such as --seed 42 or --seed nightly-run.');
  }
  return seed;
}
