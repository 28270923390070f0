/** What the merge tests share: an Io that keeps its standard output, and a merge that must be refused. */
import { PassThrough } from 'node:stream';
import { expect } from 'vitest';
import type { Io } from '../src/io/streams.js';
import { mergePartials } from '../src/shards/partial.js';
import { InputError } from '../src/scenario/errors.js';

/** An Io whose standard output is kept, as text. */
export function capturingIo(): Io & { out: () => string } {
  const stdout = new PassThrough();
  let text = '';
  stdout.on('data', (d: Buffer) => { text += d.toString(); });
  return { stdout, stderr: new PassThrough(), env: {}, out: () => text };
}

/** The message merging the parts `texts` (named p1.json, p2.json, ... unless `names`) is refused with; fails if they merge. */
export function refused(texts: readonly string[], names = texts.map((_, i) => `p${i + 1}.json`)): string {
  try {
    mergePartials(texts.map((text, i) => ({ file: names[i] as string, text })));
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    return (e as Error).message;
  }
  throw new Error('merged');
}
