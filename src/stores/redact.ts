/**
 * Store URLs as they may be shown: in errors, the probe's report, its replay line and JSON.
 * The rule: a URL's password and every query value whose key looks like a secret become
 * `****`; a URL that does not parse as a store URL is shown only as its scheme and host
 * (`redis://****@host` when it had userinfo), or as `(the URL given)` when even those cannot
 * be found. Every secret seen is also remembered, so that a driver's message that quotes one
 * is scrubbed before it is shown (`hideSecrets`). The query's rule (`maskedPair`,
 * `secretQueryValues`) is also the one `fit` shows its URLs and their answers by (remote/http.ts).
 */
import { SCHEME_KINDS } from './registry.js';

/** Every scheme of a store in the registry ("redis:", "postgresql:", ...). */
export const STORE_SCHEMES: ReadonlySet<string> = new Set(SCHEME_KINDS.keys());

/** What stands for a URL that cannot be shown even in part. */
export const UNSHOWABLE = '(the URL given)';

/**
 * Query keys taken as secrets (when in doubt, hidden): node-pg reads `password` and
 * `sslpassword`-like keys from the query (pg-connection-string copies every query key into
 * its config), ioredis `password` and `sentinelPassword` (its parseURL copies every query key
 * into its options); `auth`, `token`, `secret`, `credential(s)` and `*key` are other drivers' names.
 */
const SECRET_KEY = /pass|pwd|secret|token|auth|cred|private|sig(nature)?$|(^|[_.-])key$|apikey|sslkey|access.?key/i;

export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;
const HOST = /^(?:[\w.%-]+|\[[0-9a-f:.]+\])(?::\d*)?$/i;

/** The URL with its secrets hidden, for messages and reports; the text itself when it holds none. */
export function redactUrl(text: string): string {
  const parts = storeUrlParts(text);
  if (!parts) return roughly(text);
  const { scheme, authority, path, query, fragment } = parts;
  const at = authority.lastIndexOf('@');
  let shown = authority;
  if (at >= 0) {
    const userinfo = authority.slice(0, at);
    const colon = userinfo.indexOf(':');
    if (colon >= 0) shown = `${userinfo.slice(0, colon)}:****${authority.slice(at)}`;
  }
  const q = query === '' ? '' : `?${query.slice(1).split('&').map(maskedPair).join('&')}`;
  const f = fragment === '' || fragment === '#' ? fragment : '#****';
  return `${scheme}${shown}${path}${q}${f}`;
}

/** The secrets a URL holds (password, secret query values), decoded and as written, to scrub from messages. */
export function secretsOf(text: string): string[] {
  const found: string[] = [];
  const add = (raw: string) => {
    if (raw === '') return;
    found.push(raw);
    try { found.push(decodeURIComponent(raw.replace(/\+/g, ' '))); } catch { /* not %-encoded text */ }
  };
  const parts = storeUrlParts(text);
  if (!parts) {
    // Whatever precedes the last '@' may be a password: hide all of it, and each piece of it.
    const rest = text.replace(SCHEME, '');
    const at = rest.lastIndexOf('@');
    if (at > 0) {
      const userinfo = rest.slice(0, at);
      const password = userinfo.includes(':') ? userinfo.slice(userinfo.indexOf(':') + 1) : userinfo;
      add(password);
      for (const piece of password.split(/[:/?#]/)) add(piece);
    }
    return found;
  }
  const at = parts.authority.lastIndexOf('@');
  const userinfo = at >= 0 ? parts.authority.slice(0, at) : '';
  if (userinfo.includes(':')) add(userinfo.slice(userinfo.indexOf(':') + 1));
  for (const value of secretQueryValues(parts.query)) add(value);
  return found;
}

/** The values, as written, of a query's (`?a=1&token=x`) keys that look like secrets. */
export function secretQueryValues(query: string): string[] {
  return query.replace(/^\?/, '').split('&').flatMap((pair) => {
    const eq = pair.indexOf('=');
    return eq > 0 && isSecretKey(decodeKey(pair.slice(0, eq))) ? [pair.slice(eq + 1)] : [];
  });
}

interface UrlParts { scheme: string; authority: string; path: string; query: string; fragment: string }

/**
 * The parts of a URL that `new URL` accepts with a store scheme and an authority, as written.
 * Null for anything else, and for an '@' after the authority: `postgres://u:1/ss@host/db`
 * parses with host `u:1`, but is a password with a '/' in it.
 */
function storeUrlParts(text: string): UrlParts | null {
  const scheme = SCHEME.exec(text);
  if (!scheme) return null;
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return null;
  }
  if (!STORE_SCHEMES.has(u.protocol.toLowerCase())) return null;
  const rest = text.slice(scheme[0].length);
  const end = rest.search(/[/?#]/);
  const authority = end < 0 ? rest : rest.slice(0, end);
  const tail = end < 0 ? '' : rest.slice(end);
  if (tail.includes('@')) return null;
  const hash = tail.indexOf('#');
  const beforeHash = hash < 0 ? tail : tail.slice(0, hash);
  const qm = beforeHash.indexOf('?');
  return {
    scheme: scheme[0], authority,
    path: qm < 0 ? beforeHash : beforeHash.slice(0, qm), query: qm < 0 ? '' : beforeHash.slice(qm),
    fragment: hash < 0 ? '' : tail.slice(hash),
  };
}

/** One `key=value` of a query as shown: the value `****` where the key looks like a secret. */
export function maskedPair(pair: string): string {
  const eq = pair.indexOf('=');
  if (eq < 0) return pair;
  return isSecretKey(decodeKey(pair.slice(0, eq))) ? `${pair.slice(0, eq)}=****` : pair;
}

function decodeKey(key: string): string {
  try {
    return decodeURIComponent(key.replace(/\+/g, ' '));
  } catch {
    return key;
  }
}

/** Scheme and host of a URL that does not parse: the host is what follows the last '@'. */
function roughly(text: string): string {
  const scheme = SCHEME.exec(text);
  if (!scheme) return UNSHOWABLE;
  const rest = text.slice(scheme[0].length);
  const at = rest.lastIndexOf('@');
  const host = (at >= 0 ? rest.slice(at + 1) : rest).split(/[/?#]/)[0] ?? '';
  if (host === '' || !HOST.test(host)) return UNSHOWABLE;
  return `${scheme[1]}://${at >= 0 ? '****@' : ''}${host}`;
}

/**
 * Secrets seen in store URLs during this process: no message shows them (see `hideSecrets`).
 * Only those of MIN_SCRUBBED characters or more: scrubbing a "1" would garble every port and
 * count in a message. Shorter ones are still hidden wherever the URL is shown (redactUrl).
 */
const remembered = new Set<string>();
const MIN_SCRUBBED = 4;

export function rememberSecrets(text: string): void {
  for (const s of secretsOf(text)) if (s.length >= MIN_SCRUBBED) remembered.add(s);
}

/** `text` with every remembered secret replaced by `****`, longest first. */
export function hideSecrets(text: string): string {
  let out = text;
  for (const s of [...remembered].sort((a, b) => b.length - a.length)) out = out.split(s).join('****');
  return out;
}
