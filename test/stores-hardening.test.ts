/**
 * Issue 12, items 3, 4 and 6, the checks that need no running store: no credential of a store
 * URL is ever shown; URL options that move the probe's writes are refused; sizes are checked
 * before anything is allocated (or connected: the probes here point at a port nothing listens
 * on). What needs the real Redis and PostgreSQL is in stores-hardening.services.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { StoreError } from '../src/stores/errors.js';
import { MAX_WRITE_BYTES, measureRecords } from '../src/probe/limits.js';
import { redactUrl } from '../src/stores/redact.js';
import { parseStoreUrl } from '../src/stores/url.js';
import { idem, scenarioFile, SECRET, SLOW_YAML } from './store-helpers.js';

// fresh modules: src/stores/redact.ts hides every secret of a store URL read in this process, and another file's (a password "secret") would hide the ?secret= these checks look for.

const SLOW = scenarioFile('slow.yaml', SLOW_YAML);

/** What a URL shows: its display when accepted, its error message when refused. */
function shown(url: string): { ok: boolean; text: string } {
  try {
    return { ok: true, text: parseStoreUrl(url).display };
  } catch (e) {
    expect(e).toBeInstanceOf(StoreError);
    return { ok: false, text: (e as Error).message };
  }
}

describe('credentials in store URLs are never shown', () => {
  // [URL, accepted?, the display or a fragment of the message]
  const forms: [string, boolean, string][] = [
    [`redis://:${SECRET}@h:6379`, true, 'redis://:****@h:6379'],
    [`redis://user:${SECRET}@h:6379/0`, true, 'redis://user:****@h:6379/0'],
    [`REDIS://user:${SECRET}@h`, true, 'REDIS://user:****@h'],
    [`rediss://u:${SECRET}%2Fx@h`, true, 'rediss://u:****@h'],
    [`redis://u:${SECRET}@x@h`, true, 'redis://u:****@h'],
    [`redis://h:6379/?password=${SECRET}`, true, 'redis://h:6379/?password=****'],
    [`redis://h/?username=u&password=${SECRET}&db=2`, true, 'redis://h/?username=u&password=****&db=2'],
    [`redis://h/#${SECRET}`, true, 'redis://h/#****'],
    [`postgres://u:${SECRET}@h/db`, true, 'postgres://u:****@h/db'],
    [`postgresql://u@h/db?password=${SECRET}&sslmode=disable`, true, 'postgresql://u@h/db?password=****&sslmode=disable'],
    [`postgres://u@h/db?password=${SECRET}&password=${SECRET}2`, true, 'postgres://u@h/db?password=****&password=****'],
    // Malformed: the password has a '/', '?', '#' or is outside any URL.
    [`redis://u:${SECRET}/x@h`, false, 'redis://****@h: is not a URL'],
    [`redis://u:${SECRET}#x@h`, false, 'redis://****@h: is not a URL'],
    [`redis://u:${SECRET}?x@h:6379/0`, false, 'redis://****@h:6379: is not a URL'],
    [`postgresql://u:1/${SECRET}@h/db`, false, 'postgresql://****@h: is not a URL the probe can read safely'],
    [`redis://u:1/${SECRET}@h`, false, 'Percent-encode'],
    [`u:${SECRET}@h`, false, '(the URL given): is not a URL: it has no scheme'],
    [`${SECRET}@h:6379`, false, '(the URL given): is not a URL: it has no scheme'],
    [`redis://u:${SECRET}@h:99999`, false, 'redis://****@h:99999: is not a URL'],
    [`redis://u:${SECRET}@[::1`, false, '(the URL given): is not a URL'],
    [` redis://u:${SECRET}@h`, false, '(the URL given): has spaces or control characters around it'],
    [`mysql://u:${SECRET}@h/db`, false, 'mysql://****@h: has the scheme "mysql"'],
    // Secrets in options the probe refuses: masked in the refusal.
    [`postgres://u@h/db?sslpassword=${SECRET}`, false, '?sslpassword=****: the option ?sslpassword= is not one'],
    [`postgres://u@h/db?PASSWORD=${SECRET}`, false, '?PASSWORD=****'],
    [`postgres://u@h/db?api_key=${SECRET}`, false, '?api_key=****'],
    [`redis://h/?sentinelPassword=${SECRET}`, false, '?sentinelPassword=****'],
    [`redis://h/?pass=${SECRET}`, false, '?pass=****'],
    [`redis://h/?auth=${SECRET}&token=${SECRET}`, false, '?auth=****&token=****'],
    [`redis://h/?secret=${SECRET}`, false, '?secret=****'],
  ];
  for (const [url, ok, expected] of forms) {
    it(url, () => {
      const r = shown(url);
      expect(r.ok).toBe(ok);
      expect(r.text).toContain(expected);
      expect(r.text).not.toContain(SECRET);
      expect(redactUrl(url)).not.toContain(SECRET);
    });
  }

  it('a URL without secrets is shown exactly as given', () => {
    for (const url of ['redis://127.0.0.1:6379', 'redis://h:6379/2?db=2', 'postgres://postgres@127.0.0.1:5432/test', 'postgresql://u@h/db?sslmode=require']) {
      expect(parseStoreUrl(url).display).toBe(url);
    }
  });

  it('a driver message that quotes a password is scrubbed', () => {
    parseStoreUrl(`redis://u:${SECRET}Z@h`);
    const e = new StoreError('redis://u:****@h', `cannot connect (AUTH u ${SECRET}Z failed)`, 'Fix it.');
    expect(e.message).not.toContain(SECRET);
  });

});

describe('URL options that change the namespace or override the probe are refused', () => {
  const refused: [string, RegExp][] = [
    ['redis://127.0.0.1:6379/?keyPrefix=app:', /\?keyPrefix= changes the key namespace.*idem-sim:<hex>:/],
    ['postgres://u@h/db?options=-c%20search_path%3Dpublic', /\?options= changes the key namespace.*search_path/],
    ['redis://h/?path=/tmp/redis.sock', /\?path= is not one the probe passes to ioredis/],
    ['redis://h/?enableOfflineQueue=true', /\?enableOfflineQueue= is not one/],
    ['postgres://u@h/db?query_timeout=0', /\?query_timeout= is not one the probe passes to node-pg/],
    ['postgres://u@h/db?application_name=x', /\?application_name= is not one/],
  ];
  for (const [url, message] of refused) {
    it(url, () => {
      const r = shown(url);
      expect(r.ok).toBe(false);
      expect(r.text).toMatch(message);
    });
  }
});

describe('sizes are checked before anything is allocated', () => {
  const cases: [string[], RegExp][] = [
    [['--response-bytes', '1e9'], /--response-bytes 1e9: the probe stores a response of at most 1,048,576 bytes/],
    [['--set', 'idempotency.record_bytes=10000000'], /key idempotency\.record_bytes: leaves a response of 9,999,900 bytes.*at most 1,048,576/],
    [['--records', '1000000000'], /at most 100,000 records/],
    [['--records', '100000', '--response-bytes', '1048576'], /writes at most 256 MiB to measure\. Give --records 255 or less/],
    [['--actions', '1000', '--response-bytes', '1048576'], /replay writes at most 256 MiB\. Give --actions 255 or less/],
    [['--connections', '100000'], /at most 128 connections/],
  ];
  for (const [args, message] of cases) {
    it(args.join(' '), async () => {
      const r = await idem(['probe', SLOW, '--store', 'redis://127.0.0.1:1', ...args]);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(message);
    });
  }

  it('the default number of measurement records shrinks to fit the write budget', () => {
    expect(measureRecords(undefined, undefined, 100)).toBe(1000);
    expect(measureRecords(undefined, undefined, 1_048_576)).toBe(Math.floor(MAX_WRITE_BYTES / (1_048_576 + 100)));
  });
});
