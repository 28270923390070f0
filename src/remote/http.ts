/**
 * `fit`'s live sources over HTTP: a Prometheus server's HTTP API (`/api/v1/query`) and a
 * `/metrics` page (cli/fit.ts asks, ingest/fit-sources.ts reads the answer). Read as
 * untrusted: http and https only; credentials in the URL sent as Basic authentication and never
 * printed; redirects followed only on the same host, never to an address that carries
 * credentials; one deadline for the whole exchange; a size limit checked before and while
 * reading; an answer never echoed beyond a short printable clip. Every part of a message that
 * is not its own words (a URL, what the server or the HTTP client said, a name or
 * label of the answer) passes through `redacted` before it is printed; the words themselves do
 * not, so a secret that is also one of them ("http") leaves them whole.
 */
import { Interrupted } from '../exec/interrupted.js';
import { formatDuration } from '../scenario/duration.js';
import { InputError } from '../scenario/errors.js';
import { clipped, printable } from '../scenario/printable.js';
import { maskedPair, secretQueryValues } from '../stores/redact.js';

/** The largest answer read: 16 MiB, a /metrics page of thousands of series many times over. */
export const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
/** Redirects followed (on the same host) before giving up. */
const MAX_REDIRECTS = 5;
/**
 * The shortest secret scrubbed wherever it stands: a user name or password of 1 to 3
 * characters would garble every port and count in a message (as for store URLs). It is still
 * hidden wherever it stands in a URL, with the rest of the userinfo.
 */
const MIN_SCRUBBED = 4;

export interface HttpRequest {
  /** The option that gave the URL (`--prometheus`), for messages. */
  readonly flag: string;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  readonly accept: string;
  /** What an answer other than 2xx says, where the server's error has a form (Prometheus's JSON); else a clip of it. */
  readonly errorText?: (text: string) => string | undefined;
}

/** An address to GET: its URL without credentials, the Basic credential made of them, and what it held that no message may show. */
export interface HttpTarget {
  readonly url: URL;
  readonly authorization?: string;
  readonly secrets?: readonly string[];
}

const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;
/** Anything URL-shaped with userinfo: a scheme, `://`, and all up to the last '@' before a space. */
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)\S*@/gi;
/** A query's `key=value`, after its `?` or `&`. */
const QUERY_PAIR = /([?&])([^=&#\s]+=[^&#\s]*)/g;

/**
 * Text about a URL or an HTTP exchange, as it may be printed: a URL, a server's answers and the
 * HTTP client's errors (Node's fetch quotes the URL it was given, credentials and all), each read
 * as text that may hold credentials. The userinfo of anything URL-shaped becomes `****`, so does
 * the value of a query's key that looks like a secret (store URLs' rule: `maskedPair`), and so
 * does each of `secrets` (those of the URL given: `urlSecrets`) wherever it stands.
 */
export function redacted(text: string, secrets: readonly string[] = []): string {
  let out = text.replace(USERINFO, '$1****@').replace(QUERY_PAIR, (_, sep: string, pair: string) => `${sep}${maskedPair(pair)}`);
  for (const s of [...secrets].sort((a, b) => b.length - a.length)) if (s.length >= MIN_SCRUBBED) out = out.split(s).join('****');
  return out;
}

const decoded = (text: string): string => { try { return decodeURIComponent(text); } catch { return text; } };

/**
 * What a URL given holds that no message may show: its userinfo, user name and password as
 * written and decoded, the Basic credential made of them, and the values of its query's keys
 * that look like secrets (`?token=...`). Where the text does not parse, whatever precedes its
 * last '@' is taken as userinfo (a password may hold a '/').
 */
export function urlSecrets(text: string): string[] {
  const rest = text.trim().replace(SCHEME, '');
  let parsed: URL | undefined;
  try { parsed = new URL(text); } catch { /* described roughly */ }
  const authority = parsed ? rest.split(/[/?#]/)[0] ?? '' : rest;
  const query = parsed ? secretQueryValues(parsed.search).flatMap((v) => [v, decoded(v.replace(/\+/g, ' '))]) : [];
  const at = authority.lastIndexOf('@');
  if (at < 0) return [...new Set(query)].filter((s) => s.length >= MIN_SCRUBBED);
  const userinfo = authority.slice(0, at);
  const colon = userinfo.indexOf(':');
  const user = colon < 0 ? userinfo : userinfo.slice(0, colon);
  const password = colon < 0 ? '' : userinfo.slice(colon + 1);
  const found = new Set([userinfo, user, password, decoded(user), decoded(password), parsed?.username ?? '', parsed?.password ?? '', ...query]);
  found.add(Buffer.from(`${decoded(user)}:${decoded(password)}`).toString('base64'));
  return [...found].filter((s) => s.length >= MIN_SCRUBBED);
}

/**
 * The URL as messages show it: scheme, host and path, never its credentials or query; redacted
 * but for an http or https scheme (a word of the message when it is one: a user named "http"
 * leaves it whole; another scheme, as a server's redirect may give, is what it said).
 */
export function shownUrl(u: URL, secrets: readonly string[] = []): string {
  const scheme = u.protocol === 'http:' || u.protocol === 'https:' ? u.protocol : redacted(u.protocol, secrets);
  return clipped(printable(`${scheme}//${redacted(`${u.host}${u.pathname}`, secrets)}`), 120);
}

/** A URL that does not parse, as messages show it: its scheme and host where they read (`"http://****@host:99999"`, redacted as shownUrl does), else nothing of it. */
function roughly(text: string, secrets: readonly string[]): string {
  const scheme = SCHEME.exec(text.trim());
  const rest = text.trim().slice(scheme?.[0].length ?? 0);
  const at = rest.lastIndexOf('@');
  const host = (at >= 0 ? rest.slice(at + 1) : rest).split(/[/?#]/)[0] ?? '';
  if (!scheme || !/^(?:[\w.%-]+|\[[0-9a-f:.]*\]?)(?::\d*)?$/i.test(host)) return 'the address given';
  const shownScheme = /^https?$/i.test(scheme[1] as string) ? scheme[1] : redacted(scheme[1] as string, secrets);
  return `"${shownScheme}://${at >= 0 ? '****@' : ''}${redacted(host, secrets)}"`;
}

/** An InputError about a URL: fit's own words, with every part they echo already redacted (shownUrl, quoted, roughly). */
function refusal(source: string, problem: string, fix: string): InputError {
  return new InputError({ source }, '', problem, fix);
}

/** A URL an option gave: http or https, credentials moved to a header. */
export function parseUrl(text: string, flag: string): HttpTarget & { readonly secrets: readonly string[] } {
  const secrets = urlSecrets(text);
  const refuse = (problem: string, fix = `Give an http:// or https:// address, such as ${flag} http://127.0.0.1:9090.`): never => {
    throw refusal(flag, problem, fix);
  };
  let url: URL;
  try { url = new URL(text); } catch { return refuse(`${roughly(text, secrets)} is not a URL`); }
  // `user:password@host` parses as the scheme "user" with the path "password@host": never echo it.
  if (!text.includes('://') && text.includes('@')) return refuse('is not a URL: it has no http:// or https://');
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return refuse(`${clipped(printable(redacted(url.protocol, secrets)), 20)} is not http or https`);
  if (url.username === '' && url.password === '') return { url, secrets };
  const [user, password] = [url.username, url.password].map((part) => { try { return decodeURIComponent(part); } catch { return undefined; } });
  if (user === undefined || password === undefined) {
    return refuse('has a user name or password with a % that does not start an escape', 'Percent-encode a literal % as %25 (and /, ?, #, @ likewise).');
  }
  url.username = '';
  url.password = '';
  return { url, authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`, secrets };
}

/** Reads a body up to `max` bytes, refusing past it. */
async function body(res: Response, max: number, refuse: (problem: string, fix: string) => never): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (declared > max) refuse(`answered ${declared.toLocaleString('en-US')} bytes, more than the ${max.toLocaleString('en-US')} read`, 'Ask for less: one histogram\'s buckets.');
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      refuse(`answered more than ${max.toLocaleString('en-US')} bytes, the most read`, 'Ask for less: one histogram\'s buckets.');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The first printable characters of an answer, for a message. */
export const clip = (text: string): string => clipped(printable(text.replace(/\s+/g, ' ').trim()), 160);

/** GETs `target`, following redirects on its host only; the text of a 2xx answer, or an InputError. */
export async function httpGet(target: HttpTarget, req: HttpRequest): Promise<string> {
  const origin = target.url.origin;
  const secrets = target.secrets ?? [];
  const refuse = (problem: string, fix: string): never => { throw refusal(`${req.flag} ${shownUrl(target.url, secrets)}`, problem, fix); };
  // Redacted before it is clipped, so that no part of a secret is left at a clip's edge.
  const quoted = (text: string): string => clip(redacted(text, secrets));
  const deadline = AbortSignal.timeout(req.timeoutMs);
  const signal = AbortSignal.any([req.signal, deadline]);
  let url = target.url;
  try {
    for (let hops = 0; ; hops++) {
      const res = await fetch(url, {
        redirect: 'manual', signal,
        headers: { accept: req.accept, 'user-agent': 'idem-sim fit', ...(target.authorization ? { authorization: target.authorization } : {}) },
      });
      if (res.status >= 300 && res.status < 400 && res.headers.has('location')) {
        await res.body?.cancel();
        url = nextHop(res.headers.get('location') as string, url, origin, hops, refuse, secrets);
        continue;
      }
      const text = await body(res, MAX_RESPONSE_BYTES, refuse);
      if (res.status < 200 || res.status > 299) {
        const said = req.errorText?.(text) ?? text;
        refuse(`answered HTTP ${res.status}${said.trim() ? `: ${quoted(said)}` : ''}`, 'Check the address and, for a query, its PromQL.');
      }
      return text;
    }
  } catch (e) {
    if (e instanceof InputError) throw e;
    if (req.signal.aborted) throw new Interrupted();
    if (deadline.aborted) refuse(`did not answer within ${formatDuration(req.timeoutMs)}`, 'Check that the server is up and reachable, or give it longer with --timeout.');
    // The HTTP client's own text (its message, its cause's) may quote a URL, credentials and all.
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    return refuse(`could not be reached (${quoted(String(cause?.code ?? cause?.message ?? (e as Error | undefined)?.message ?? e))})`, 'Check the address and that the server is up.');
  }
}

/** Where a redirect leads: on the same scheme, host and port, without credentials of its own, at most MAX_REDIRECTS times. */
function nextHop(location: string, from: URL, origin: string, hops: number, refuse: (problem: string, fix: string) => never, secrets: readonly string[]): URL {
  let next: URL;
  try { next = new URL(location, from); } catch { return refuse(`redirects to ${roughly(location, secrets)}, which is not a URL`, 'Give the final address yourself.'); }
  if (next.origin !== origin) refuse(`redirects to another host or scheme (${shownUrl(next, secrets)})`, 'Give the address it redirects to yourself, if you trust it: idem-sim follows redirects only on the host it was given.');
  if (next.username !== '' || next.password !== '') {
    refuse(`redirects to an address with credentials in it (${shownUrl(next, secrets)})`, 'Give the final address yourself, with your own credentials if it needs them: idem-sim sends only the credentials of the address it was given.');
  }
  if (hops === MAX_REDIRECTS) refuse(`redirected more than ${MAX_REDIRECTS} times`, 'Give the final address.');
  return next;
}
