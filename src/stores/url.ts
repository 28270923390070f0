/** Which store a URL names, checked before anything connects. */
import { StoreError } from './errors.js';
import { rememberSecrets, redactUrl } from './redact.js';

export type StoreKind = 'redis' | 'postgres';

const SCHEMES: Record<string, StoreKind> = { 'redis:': 'redis', 'rediss:': 'redis', 'postgres:': 'postgres', 'postgresql:': 'postgres' };

export const URL_FORMS = 'redis://[user:password@]host[:6379][/db], rediss:// for TLS, or postgres://[user[:password]@]host[:5432]/database';

/**
 * Query options the probe lets through to the driver. Both drivers copy every query key into
 * their options, over the probe's own: ioredis's parseURL (`keyPrefix` moves every key out of
 * the probe's `idem-sim:` namespace; `retryStrategy`, `enableOfflineQueue`, `path`, `sentinels`
 * and the like undo its fail-fast settings or send it elsewhere), and pg-connection-string
 * (`options=-c search_path=...` or `-c role=...` change where and as whom statements run;
 * `query_timeout`, `application_name` replace the probe's). So only the options for reaching
 * and authenticating to the server pass.
 */
const ALLOWED_QUERY: Record<StoreKind, readonly string[]> = {
  redis: ['db', 'username', 'password', 'family'],
  postgres: ['host', 'port', 'user', 'password', 'ssl', 'sslmode', 'sslrootcert', 'sslcert', 'sslkey', 'sslnegotiation', 'uselibpqcompat', 'statement_timeout', 'lock_timeout'],
};

/** Query options that move the probe's writes out of its own namespace, and what to do instead. */
const NAMESPACE_OPTIONS: Record<StoreKind, Record<string, string>> = {
  redis: {
    keyPrefix: 'the probe writes every key under a fresh idem-sim:<hex>: prefix of its own and removes them by that prefix; remove ?keyPrefix= (an ACL limited to ~idem-sim:* covers the probe as it is)',
  },
  postgres: {
    options: 'startup settings (such as -c search_path=... or -c role=...) change where and as whom the probe writes; remove ?options= (the probe writes only to a fresh schema idem_sim_<hex> of its own, named in full)',
  },
};

export interface StoreUrl {
  kind: StoreKind;
  /** As given, for the driver. */
  url: string;
  /** Secrets hidden, for messages and reports. */
  display: string;
}

export function parseStoreUrl(text: string): StoreUrl {
  rememberSecrets(text);
  const display = redactUrl(text);
  const bad = (problem: string, fix = `Write it as ${URL_FORMS}.`): never => {
    throw new StoreError(display, problem, fix);
  };
  const hostPort = /^[\w.-]+:\d+$/.test(text.trim());
  const noScheme = `Write redis://${text.trim()} or postgres://${text.trim()}/DATABASE.`;
  // new URL trims them, but ioredis would read " redis://..." as a host name.
  if (text !== text.trim() || text === '') return bad(text === '' ? 'is empty' : 'has spaces or control characters around it', text === '' ? `Write it as ${URL_FORMS}.` : 'Remove them (quote the URL in the shell).');
  // `user:password@host` parses as the scheme "user" with the path "password@host": never echo it.
  if (!text.includes('://') && text.includes('@')) return bad('is not a URL: it has no scheme', `Write it as ${URL_FORMS}.`);
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return hostPort ? bad('is not a URL (no scheme)', noScheme) : bad('is not a URL');
  }
  const kind = SCHEMES[u.protocol];
  if (!kind) {
    return /^[\w.-]+:$/.test(u.protocol) && /^\d+$/.test(u.pathname)
      ? bad('is not a URL (no scheme)', noScheme)
      : bad(`has the scheme "${u.protocol.replace(/:$/, '')}", which is not a store the probe knows`, `Use ${URL_FORMS}.`);
  }
  const afterHost = text.slice(text.indexOf('://') + 3).replace(/^[^/?#]*/, '');
  if (afterHost.includes('@')) {
    bad('is not a URL the probe can read safely (an "@" after the host: a password with "/" in it?)', 'Percent-encode "/", "?", "#" and "@" in the user and password (/ as %2F, @ as %40).');
  }
  if (u.port !== '' && !(Number(u.port) >= 1 && Number(u.port) <= 65535)) bad(`port ${u.port} is out of range`);
  // The drivers decode these with decodeURIComponent, which throws on a stray % (ioredis: in
  // its constructor, where the error would escape as a bug).
  for (const [part, value] of [['user name', u.username], ['password', u.password]] as const) {
    try { decodeURIComponent(value); } catch {
      bad(`the ${part} holds a % that does not start an escape`, 'Percent-encode a literal % as %25 (and /, ?, #, @ likewise).');
    }
  }
  checkQuery(u, kind, bad);
  if (kind === 'redis' && !/^\/?(\d+)?$/.test(u.pathname)) {
    bad(`"${u.pathname}" is not a Redis database number`, 'End a redis:// URL with the database number, such as redis://127.0.0.1:6379/0, or with nothing.');
  }
  const db = u.searchParams.get('db'); // ioredis reads ?db= too: a non-number would have it send SELECT NaN
  if (kind === 'redis' && db !== null && !/^\d+$/.test(db)) {
    bad(`db=${db} is not a Redis database number`, 'Give the database as a whole number, such as ?db=1, or in the path: redis://127.0.0.1:6379/1.');
  }
  if (kind === 'postgres' && u.host === '' && u.pathname.replace(/^\//, '') === '' && !u.searchParams.has('host')) {
    bad('names no host and no database', 'Write it as postgres://user@host:5432/database.');
  }
  return { kind, url: text, display };
}

/** Refuses query options that change the probe's namespace or override its settings. */
function checkQuery(u: URL, kind: StoreKind, bad: (problem: string, fix?: string) => never): void {
  const driver = kind === 'redis' ? 'ioredis' : 'node-pg';
  for (const key of new Set(u.searchParams.keys())) {
    const namespace = NAMESPACE_OPTIONS[kind][key];
    if (namespace !== undefined) bad(`the option ?${key}= changes the key namespace the probe writes to`, `${namespace[0]?.toUpperCase()}${namespace.slice(1)}.`);
    if (!ALLOWED_QUERY[kind].includes(key)) {
      bad(`the option ?${key}= is not one the probe passes to ${driver} (${driver} would take it over the probe's own settings)`,
        `Remove it; the probe accepts ${ALLOWED_QUERY[kind].map((k) => `?${k}=`).join(', ')} in a ${kind === 'redis' ? 'redis://' : 'postgres://'} URL.`);
    }
  }
}
