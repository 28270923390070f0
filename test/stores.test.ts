/**
 * Store URLs and stores that are not there, with no running service: a malformed URL is refused
 * before anything connects, and a port nothing listens on fails fast. The protocol on the real
 * Redis and PostgreSQL is in stores.services.test.ts.
 */
import { Socket } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { StoreError } from '../src/stores/errors.js';
import { openBackend } from '../src/stores/open.js';
import { parseStoreUrl } from '../src/stores/url.js';

describe('store URLs and unreachable stores', () => {
  it('malformed URLs are refused before anything connects, with the forms that work', () => {
    const refuse = (url: string, ...fragments: string[]) => {
      let err: unknown;
      try { parseStoreUrl(url); } catch (e) { err = e; }
      expect(err).toBeInstanceOf(StoreError);
      for (const f of fragments) expect((err as Error).message).toContain(f);
    };
    refuse('127.0.0.1:6379', 'no scheme', 'redis://127.0.0.1:6379');
    refuse('localhost:6379', 'no scheme', 'redis://localhost:6379');
    refuse('mysql://db/x', '"mysql"', 'postgres://');
    refuse('redis://127.0.0.1:6379/abc', 'not a Redis database number');
    refuse('redis://127.0.0.1:6379/?db=abc', 'db=abc is not a Redis database number', '?db=1'); // ioredis would send SELECT NaN
    refuse('redis://127.0.0.1:6379/?db=1.5', 'db=1.5 is not a Redis database number');
    refuse('redis://127.0.0.1:99999', 'not a URL');
    refuse('redis://:secret@127.0.0.1:6379/x', '****');
    expect(parseStoreUrl('postgresql://u:pw@h/db')).toMatchObject({ kind: 'postgres', display: 'postgresql://u:****@h/db' });
  });

  it('an unreachable Redis or PostgreSQL fails at its first connection attempt with a StoreError naming the fix', async () => {
    // Counted, not timed: the sockets opened before the refusal. One for the two connections
    // asked for: no retry, no second client tried against a store already found missing.
    const connect = vi.spyOn(Socket.prototype, 'connect');
    try {
      for (const url of ['redis://127.0.0.1:1', 'postgres://postgres@127.0.0.1:1/test']) {
        connect.mockClear();
        const err = await openBackend(url, 2).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(StoreError);
        expect((err as StoreError).problem).toMatch(/cannot connect/);
        expect((err as StoreError).fix).toMatch(/Start (redis-server|PostgreSQL)/);
        expect(connect, url).toHaveBeenCalledTimes(1);
      }
    } finally {
      connect.mockRestore();
    }
  });
});
