/** Which store a URL names, checked before anything connects. */
import { StoreError } from './errors.js';
import type { BadUrl, StoreDescriptor } from './descriptor.js';
import { rememberSecrets, redactUrl } from './redact.js';
import { descriptorOf, SCHEME_KINDS, URL_FORMS, withEachScheme, type StoreKind } from './registry.js';

export type { StoreKind } from './registry.js';
export { URL_FORMS } from './registry.js';

/*
 * Query options: each store's descriptor lists the few the probe lets through to its driver.
 * Both drivers copy every query key into their options, over the probe's own (ioredis's
 * parseURL, pg-connection-string), so a key such as ?keyPrefix= or ?options= would move the
 * probe's writes out of its namespace or undo its fail-fast settings: only the options for
 * reaching and authenticating to the server pass.
 */

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
  const noScheme = `Write ${withEachScheme(text.trim())}.`;
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
  const kind = SCHEME_KINDS.get(u.protocol);
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
  const store = descriptorOf(kind);
  checkQuery(u, store, bad);
  store.checkUrl(u, bad);
  return { kind, url: text, display };
}

/** Refuses query options that change the probe's namespace or override its settings. */
function checkQuery(u: URL, store: StoreDescriptor<StoreKind, unknown>, bad: BadUrl): void {
  const { driver, allowedQuery } = store;
  for (const key of new Set(u.searchParams.keys())) {
    const namespace = Object.hasOwn(store.namespaceOptions, key) ? store.namespaceOptions[key] : undefined;
    if (namespace !== undefined) bad(`the option ?${key}= changes the key namespace the probe writes to`, `${namespace[0]?.toUpperCase()}${namespace.slice(1)}.`);
    if (!allowedQuery.includes(key)) {
      bad(`the option ?${key}= is not one the probe passes to ${driver} (${driver} would take it over the probe's own settings)`,
        `Remove it; the probe accepts ${allowedQuery.map((k) => `?${k}=`).join(', ')} in a ${store.scheme} URL.`);
    }
  }
}
