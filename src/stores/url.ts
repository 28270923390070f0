/** Which store a URL names, checked before anything connects. */
import { redactUrl, StoreError } from './errors.js';

export type StoreKind = 'redis' | 'postgres';

const SCHEMES: Record<string, StoreKind> = { 'redis:': 'redis', 'rediss:': 'redis', 'postgres:': 'postgres', 'postgresql:': 'postgres' };

export const URL_FORMS = 'redis://[user:password@]host[:6379][/db], rediss:// for TLS, or postgres://[user[:password]@]host[:5432]/database';

export interface StoreUrl {
  kind: StoreKind;
  /** As given, for the driver. */
  url: string;
  /** Password hidden, for messages and reports. */
  display: string;
}

export function parseStoreUrl(text: string): StoreUrl {
  const display = redactUrl(text);
  const bad = (problem: string, fix = `Write it as ${URL_FORMS}.`): never => {
    throw new StoreError(display, problem, fix);
  };
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return /^[\w.-]+:\d+$/.test(text.trim())
      ? bad('is not a URL (no scheme)', `Write redis://${text.trim()} or postgres://${text.trim()}/DATABASE.`)
      : bad('is not a URL');
  }
  const kind = SCHEMES[u.protocol];
  if (!kind) {
    return /^[\w.-]+:$/.test(u.protocol) && /^\d+$/.test(u.pathname)
      ? bad('is not a URL (no scheme)', `Write redis://${text.trim()} or postgres://${text.trim()}/DATABASE.`)
      : bad(`has the scheme "${u.protocol.replace(/:$/, '')}", which is not a store the probe knows`, `Use ${URL_FORMS}.`);
  }
  if (u.port !== '' && !(Number(u.port) >= 1 && Number(u.port) <= 65535)) bad(`port ${u.port} is out of range`);
  if (kind === 'redis' && !/^\/?(\d+)?$/.test(u.pathname)) {
    bad(`"${u.pathname}" is not a Redis database number`, 'End a redis:// URL with the database number, such as redis://127.0.0.1:6379/0, or with nothing.');
  }
  const db = u.searchParams.get('db'); // ioredis reads ?db= too: a non-number would have it send SELECT NaN
  if (kind === 'redis' && db !== null && !/^\d+$/.test(db)) {
    bad(`db=${db} is not a Redis database number`, 'Give the database as a whole number, such as ?db=1, or in the path: redis://127.0.0.1:6379/1.');
  }
  if (kind === 'postgres' && u.host === '' && u.pathname.replace(/^\//, '') === '') {
    bad('names no host and no database', 'Write it as postgres://user@host:5432/database.');
  }
  return { kind, url: text, display };
}
