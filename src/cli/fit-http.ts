/**
 * `fit`'s live sources over HTTP: a Prometheus server's HTTP API (`/api/v1/query`) and a
 * `/metrics` page. Read as untrusted: http and https only; credentials in the URL sent as Basic
 * authentication and never printed; redirects followed only on the same host; one deadline for
 * the whole exchange; a size limit checked before and while reading; an answer never echoed
 * beyond a short printable clip.
 */
import { Interrupted } from '../exec/interrupted.js';
import { formatDuration } from '../scenario/duration.js';
import { InputError } from '../scenario/errors.js';
import { clipped, printable } from '../scenario/printable.js';

/** The largest answer read: 16 MiB, a /metrics page of thousands of series many times over. */
export const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
/** Redirects followed (on the same host) before giving up. */
const MAX_REDIRECTS = 5;

export interface HttpRequest {
  /** The option that gave the URL (`--prometheus`), for messages. */
  readonly flag: string;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  readonly accept: string;
  /** What an answer other than 2xx says, where the server's error has a form (Prometheus's JSON); else a clip of it. */
  readonly errorText?: (text: string) => string | undefined;
}

/** The URL as messages show it: scheme, host and path, never its credentials or query. */
export const shownUrl = (u: URL): string => clipped(printable(`${u.protocol}//${u.host}${u.pathname}`), 120);

/** A URL an option gave: http or https, credentials moved to a header. */
export function parseUrl(text: string, flag: string): { url: URL; authorization?: string } {
  const refuse = (problem: string): never => {
    throw new InputError({ source: flag }, '', problem, `Give an http:// or https:// address, such as ${flag} http://127.0.0.1:9090.`);
  };
  let url: URL;
  try { url = new URL(text); } catch { return refuse(`"${clipped(printable(text), 80)}" is not a URL`); }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return refuse(`${clipped(printable(url.protocol), 20)} is not http or https`);
  if (url.username === '' && url.password === '') return { url };
  const authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
  url.username = '';
  url.password = '';
  return { url, authorization };
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
export async function httpGet(target: { url: URL; authorization?: string }, req: HttpRequest): Promise<string> {
  const origin = target.url.origin;
  const refuse = (problem: string, fix: string): never => { throw new InputError({ source: `${req.flag} ${shownUrl(target.url)}` }, '', problem, fix); };
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
        const next = new URL(res.headers.get('location') as string, url);
        if (next.origin !== origin) refuse(`redirects to another host or scheme (${shownUrl(next)})`, 'Give the address it redirects to yourself, if you trust it: idem-sim follows redirects only on the host it was given.');
        if (hops === MAX_REDIRECTS) refuse(`redirected more than ${MAX_REDIRECTS} times`, 'Give the final address.');
        url = next;
        continue;
      }
      const text = await body(res, MAX_RESPONSE_BYTES, refuse);
      if (res.status < 200 || res.status > 299) {
        const said = req.errorText?.(text) ?? text;
        refuse(`answered HTTP ${res.status}${said.trim() ? `: ${clip(said)}` : ''}`, 'Check the address and, for a query, its PromQL.');
      }
      return text;
    }
  } catch (e) {
    if (e instanceof InputError) throw e;
    if (req.signal.aborted) throw new Interrupted();
    if (deadline.aborted) refuse(`did not answer within ${formatDuration(req.timeoutMs)}`, 'Check that the server is up and reachable, or give it longer with --timeout.');
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    return refuse(`could not be reached (${clip(cause?.code ?? cause?.message ?? (e as Error).message)})`, 'Check the address and that the server is up.');
  }
}
