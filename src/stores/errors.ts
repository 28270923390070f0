/** A problem with a key store that a person can fix: a malformed URL, a store that cannot be reached or used. */
import { printable } from '../scenario/printable.js';
import { hideSecrets } from './redact.js';

export { redactUrl } from './redact.js';

export class StoreError extends Error {
  /** The URL as given, secrets hidden. */
  readonly url: string;
  readonly problem: string;
  readonly fix: string;

  /** Any secret of a store URL seen so far that `problem` or `fix` quote (a driver's message may) is hidden. */
  constructor(url: string, problem: string, fix: string) {
    const [u, p, f] = [hideSecrets(url), hideSecrets(problem), hideSecrets(fix)];
    super(printable(`${u}: ${p}. ${f}`));
    this.name = 'StoreError';
    this.url = u;
    this.problem = p;
    this.fix = f;
  }
}

/** A driver's error message, with the errno code when the message lacks it, secrets of store URLs hidden. */
export function reasonOf(e: unknown): string {
  const err = e as { code?: unknown; message?: unknown };
  const message = typeof err?.message === 'string' && err.message !== '' ? err.message : String(e);
  return hideSecrets(typeof err?.code === 'string' && !message.includes(err.code) ? `${message}, ${err.code}` : message);
}
