/**
 * `fit` never prints the credentials of a URL it is given, nor any a server or the HTTP client
 * hands back: a same-origin redirect whose Location carries user:password (Node's fetch refuses
 * such a URL with a message that quotes it whole), malformed URLs with credentials, and the
 * client's own error text, each through the command line in this process against a server on
 * 127.0.0.1.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpGet, parseUrl, redacted } from '../src/remote/http.js';
import { main } from '../src/cli/main.js';

const PASSWORD = 'hunter2-pw';
const USER = 'alice-admin';
const TOKEN = 't0psecret-tok';
/** A histogram's cumulative buckets, le and count. */
const HISTOGRAM = [['0.1', 10], ['0.2', 50], ['0.5', 90], ['1', 99], ['+Inf', 100]] as const;

async function fit(args: string[]): Promise<{ status: number; output: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const sink = (add: (s: string) => void) => new Writable({ write(chunk, _enc, done) { add(String(chunk)); done(); } });
  const status = await main(['node', 'idem-sim', 'fit', ...args], { stdout: sink((s) => { stdout += s; }), stderr: sink((s) => { stderr += s; }), env: { NO_COLOR: '1' } });
  return { status, output: stdout + stderr, stderr };
}

describe('fit over HTTP with credentials', () => {
  let server: Server;
  let port = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      // Same scheme, host and port: a redirect fit would follow, but for the credentials it names.
      if (req.url === '/creds') { res.writeHead(302, { location: `http://${USER}:${PASSWORD}@127.0.0.1:${port}/metrics` }).end(); return; }
      if (req.url === '/other-creds') { res.writeHead(302, { location: `http://bob:other-secret@127.0.0.1:${port}/metrics` }).end(); return; }
      // A server knows the credentials it was sent, and may quote them back.
      if (req.url === '/echo-page') { res.end(`x_bucket{k="${PASSWORD}",le="+Inf"} 1\nx_bucket{k="b",le="+Inf"} 1\n`); return; }
      const sent = Buffer.from((req.headers.authorization ?? '').replace('Basic ', ''), 'base64').toString();
      if (req.url === '/metrics') { res.end(HISTOGRAM.map(([le, n]) => `h_bucket{who="${sent}",url="http://${sent}@h/",le="${le}"} ${n}`).join('\n')); return; }
      if (req.url?.startsWith('/api/v1/query')) {
        const result = HISTOGRAM.map(([le, n]) => ({ metric: { le, who: sent, url: `http://${sent}@h/` }, value: [1, String(n)] }));
        res.setHeader('content-type', 'application/json').end(JSON.stringify({ status: 'success', data: { resultType: 'vector', result } }));
        return;
      }
      if (req.url === '/whoami') { res.writeHead(404).end(`no page for ${sent} (${req.headers.authorization ?? ''})`); return; }
      // A server that echoes what it was asked, query and all.
      if (req.url?.startsWith('/echo?')) { res.writeHead(500).end(`bad request for http://${sent}@127.0.0.1:${port}${req.url} (token ${new URL(req.url, 'http://x').searchParams.get('token')})`); return; }
      res.writeHead(404).end(`no page for ${USER}:${PASSWORD} (${req.headers.authorization ?? ''})`);
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  });

  it('refuses a redirect whose Location carries user:password, and shows neither', async () => {
    const r = await fit(['--metrics', `http://127.0.0.1:${port}/creds`]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^idem-sim: error: --metrics http://127\\.0\\.0\\.1:${port}/creds: redirects to an address with credentials in it \\(http://127\\.0\\.0\\.1:${port}/metrics\\)\\.`));
    expect(r.output).not.toContain(PASSWORD);
    expect(r.output).not.toContain(USER);
    const mine = await fit(['--metrics', `http://${USER}:${PASSWORD}@127.0.0.1:${port}/other-creds`]);
    expect(mine.status).toBe(2);
    for (const secret of [PASSWORD, USER, 'other-secret', 'bob:']) expect(mine.output).not.toContain(secret);
  });

  it("redacts a server's answer that quotes the credentials, in an HTTP error and in what a page's error names", async () => {
    const creds = `http://${USER}:${PASSWORD}@127.0.0.1:${port}`;
    const notFound = await fit(['--metrics', `${creds}/nope`]);
    expect(notFound.stderr).toMatch(/answered HTTP 404: no page for \*\*\*\* \(Basic \*\*\*\*\)/);
    const page = await fit(['--metrics', `${creds}/echo-page`]);
    expect(page.status).toBe(2);
    expect(page.stderr).toMatch(/^idem-sim: error: --metrics http:\/\/127\.0\.0\.1:\d+\/echo-page: has 2 series of x with the labels asked for: \{k="\*\*\*\*"\}, \{k="b"\}\./);
    for (const r of [notFound, page]) expect(r.output).not.toContain(PASSWORD);
  });

  it('redacts the labels of a successful answer, which may quote the credentials sent (a query, a /metrics page)', async () => {
    const creds = `http://${USER}:${PASSWORD}@127.0.0.1:${port}`;
    const query = await fit(['--prometheus', creds, '--query', 'h']);
    expect(query.status, query.stderr).toBe(0);
    expect(query.output.split('\n')[0]).toBe(`# idem-sim fit: 100 observations of {url="http://****@h/",who="****"} from the query h at http://127.0.0.1:${port}/ (le in seconds: Prometheus's convention: seconds).`);
    const page = await fit(['--metrics', `${creds}/metrics`]);
    expect(page.status, page.stderr).toBe(0);
    expect(page.output.split('\n')[0]).toBe(`# idem-sim fit: 100 observations of h{url="http://****@h/",who="****"} from http://127.0.0.1:${port}/metrics (le in seconds: Prometheus's convention: seconds).`);
    for (const r of [query, page]) for (const secret of [PASSWORD, USER]) expect(r.output).not.toContain(secret);
  });

  it("hides the values of the URL's secret-looking query keys, in a URL a server echoes and wherever else they stand", async () => {
    const r = await fit(['--metrics', `http://${USER}:${PASSWORD}@127.0.0.1:${port}/echo?token=${TOKEN}&page=2`]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/answered HTTP 500: bad request for http:\/\/\*\*\*\*@127\.0\.0\.1:\d+\/echo\?token=\*\*\*\*&page=2 \(token \*\*\*\*\)/);
    for (const secret of [PASSWORD, USER, TOKEN]) expect(r.output).not.toContain(secret);
    const plain = await fit(['--metrics', `http://127.0.0.1:${port}/echo?token=${TOKEN}`]);
    expect(plain.status).toBe(2);
    expect(plain.output).not.toContain(TOKEN);
  });

  it("never redacts the message's own words: a user name that is one of them (http) leaves them whole", async () => {
    const r = await fit(['--prometheus', `http:http:${PASSWORD}@127.0.0.1/`, '--query', 'h']);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('idem-sim: error: --prometheus: is not a URL: it has no http:// or https://. Give an http:// or https:// address, such as --prometheus http://127.0.0.1:9090.\n');
    // What the server says is redacted (the user name "http" with it); the message's own words are not.
    const bad = await fit(['--metrics', `http://http:${PASSWORD}@127.0.0.1:${port}/whoami`]);
    expect(bad.stderr).toBe(`idem-sim: error: --metrics http://127.0.0.1:${port}/whoami: answered HTTP 404: no page for **** (Basic ****). Check the address and, for a query, its PromQL.\n`);
    for (const x of [r, bad]) expect(x.output).not.toContain(PASSWORD);
  });

  it("redacts the HTTP client's own error, which quotes a URL with its credentials", async () => {
    // Node's fetch refuses a URL with credentials, naming it whole; no secrets are known here.
    const url = new URL(`http://${USER}:${PASSWORD}@127.0.0.1:${port}/metrics`);
    let message = '';
    try {
      await httpGet({ url }, { flag: '--metrics', timeoutMs: 30_000, signal: new AbortController().signal, accept: 'text/plain' });
    } catch (e) { message = (e as Error).message; }
    expect(message).toMatch(/could not be reached \(Request cannot be constructed from a URL that includes credentials: http:\/\/\*\*\*\*@127\.0\.0\.1:\d+\/metrics\)/);
    expect(message).not.toContain(PASSWORD);
  });

  it('refuses a % in the password that starts no escape, as bad input', async () => {
    const r = await fit(['--metrics', `http://${USER}:${PASSWORD}%zz@127.0.0.1:${port}/metrics`]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^idem-sim: error: --metrics: has a user name or password with a % that does not start an escape\./);
    expect(r.output).not.toContain(PASSWORD);
  });

  it('refuses user:password@host, which parses as the scheme "user", without echoing it', async () => {
    const r = await fit(['--metrics', `${USER}:${PASSWORD}@127.0.0.1/metrics`]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^idem-sim: error: --metrics: is not a URL: it has no http:\/\/ or https:\/\/\./);
    expect(r.output).not.toContain(USER);
  });

  it('describes a malformed URL by its scheme and host alone (a port out of range, an unclosed IPv6 bracket)', async () => {
    const cases: [string[], RegExp][] = [
      [['--metrics', `http://${USER}:${PASSWORD}@127.0.0.1:99999/x`], /^idem-sim: error: --metrics: "http:\/\/\*\*\*\*@127\.0\.0\.1:99999" is not a URL\./],
      [['--metrics', `http://${USER}:${PASSWORD}@[::1/metrics`], /^idem-sim: error: --metrics: "http:\/\/\*\*\*\*@\[::1" is not a URL\./],
      [['--prometheus', `https://${USER}:${PASSWORD}@prom.example:70000`, '--query', 'x'], /^idem-sim: error: --prometheus: "https:\/\/\*\*\*\*@prom\.example:70000" is not a URL\./],
      // A '/' in the password ends the authority: the host is what follows the last '@'.
      [['--metrics', `http://${USER}:x/${PASSWORD}@127.0.0.1:9/metrics`], /^idem-sim: error: --metrics: "http:\/\/\*\*\*\*@127\.0\.0\.1:9" is not a URL\./],
      [['--metrics', `http://${USER}:${PASSWORD}@`], /^idem-sim: error: --metrics: the address given is not a URL\./],
    ];
    for (const [args, message] of cases) {
      const r = await fit(args);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.output).not.toContain(PASSWORD);
      expect(r.output).not.toContain(USER);
    }
  });
});

describe('redacted', () => {
  it("scrubs the userinfo of anything URL-shaped in a library's text, and the URL's own secrets anywhere", () => {
    const undici = `Request cannot be constructed from a URL that includes credentials: http://${USER}:${PASSWORD}@127.0.0.1:9090/metrics`;
    expect(redacted(undici)).toBe('Request cannot be constructed from a URL that includes credentials: http://****@127.0.0.1:9090/metrics');
    expect(redacted('see HTTPS://u:p@ss@h/x and ws://a@b')).toBe('see HTTPS://****@h/x and ws://****@b');
    const { secrets } = parseUrl(`http://${USER}:p%40ss%20word@127.0.0.1/`, '--metrics');
    const basic = Buffer.from(`${USER}:p@ss word`).toString('base64');
    expect(redacted(`user ${USER} with p@ss word (p%40ss%20word), Basic ${basic}`, secrets)).toBe('user **** with **** (****), Basic ****');
    // Three characters or fewer would garble ports and counts: left to the URL-shaped rule.
    expect(redacted('port 9090', parseUrl('http://u:90@h/', '--metrics').secrets)).toBe('port 9090');
    // A query's secret-looking keys (store URLs' rule), in any URL or query string a text holds.
    expect(redacted('see /x?token=abc12&page=2 and http://h/?api_key=zzz9&x=1#f, sig=5')).toBe('see /x?token=****&page=2 and http://h/?api_key=****&x=1#f, sig=5');
    expect(redacted(`asked for ${TOKEN}`, parseUrl(`http://h/m?access_token=${TOKEN}&job=api`, '--metrics').secrets)).toBe('asked for ****');
  });
});
