/**
 * An effects file named on the command line, read under the data files' rules (io/files.ts):
 * a regular file only (a device, pipe or socket is refused before anything is read; it is
 * opened non-blocking, so a FIFO cannot hang the command), no symbolic link followed, nothing
 * under /proc, /sys or /dev (the path as written and the opened descriptor's both), at most
 * MAX_EFFECTS_FILE_BYTES, and no more than the size it had when opened. Streamed in chunks, a
 * line at a time: JSON lines by the extension `.jsonl`, `.ndjson` or `.json`, else CSV.
 */
import { constants, readlinkSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { InputError } from '../scenario/errors.js';
import { csvRows } from './csv-rows.js';
import { jsonlRows } from './jsonl-rows.js';
import { MAX_EFFECTS_FILE_BYTES } from './limits.js';
import { lines } from './lines.js';
import type { RowLines } from './places.js';
import type { RawRows } from './raw.js';

const CHUNK_BYTES = 1 << 20;
const SYSTEM_DIRS = ['/proc', '/sys', '/dev'];
const systemDirOf = (path: string) => SYSTEM_DIRS.find((d) => path === d || path.startsWith(`${d}/`));

const gib = (bytes: number): string => `${(bytes / 1024 ** 3).toFixed(bytes < 1024 ** 3 ? 2 : 0)} GiB`;

/** Whether the file is read as JSON lines (else CSV), by its extension. */
export const isJsonLines = (path: string): boolean => /\.(jsonl|ndjson|json)$/i.test(path);

async function opened(path: string): Promise<{ handle: FileHandle; size: number }> {
  const refuse = (problem: string, fix = 'Check the path: a relative one is read from the current directory.'): never => {
    throw new InputError({ source: path }, '', problem, fix);
  };
  const written = systemDirOf(isAbsolute(path) ? path : resolve(path));
  if (written) refuse(`the effects file is in ${written}, a view of the system, not a file of data`, 'Name a regular file.');
  if (/\.(gz|zst|bz2|xz|zip)$/i.test(path)) refuse('the effects file is compressed', 'Decompress it first (gunzip -k FILE), or export it uncompressed.');
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return refuse(code === 'ENOENT' ? 'the effects file does not exist'
      : code === 'ELOOP' ? 'the effects file is a symbolic link, which is not followed'
      : code === 'EISDIR' ? 'the effects file is a directory, not a file'
      : code === 'EACCES' ? 'the effects file cannot be read (permission denied)'
      : `the effects file cannot be read (${code ?? String(e)})`, code === 'ELOOP' ? 'Name the file it leads to.' : undefined);
  }
  try {
    let real: string | undefined;
    try { real = readlinkSync(`/proc/self/fd/${handle.fd}`); } catch { real = undefined; }
    const system = real === undefined ? undefined : systemDirOf(real);
    if (system) refuse(`the effects file is in ${system}, a view of the system, not a file of data`, 'Name a regular file.');
    const st = await handle.stat();
    if (st.isDirectory()) refuse('the effects file is a directory, not a file');
    if (!st.isFile()) refuse('the effects file is not a regular file (a device, pipe or socket)', 'Name a regular file: save the export first.');
    if (st.size > MAX_EFFECTS_FILE_BYTES) refuse(`the effects file is ${gib(st.size)}, over the limit of ${gib(MAX_EFFECTS_FILE_BYTES)}`, 'Reconcile it in parts (a day each), or from the database with a query.');
    return { handle, size: st.size };
  } catch (e) {
    await handle.close();
    throw e;
  }
}

/** The file's bytes in chunks, up to `size`. */
async function* chunks(handle: FileHandle, size: number, path: string): AsyncGenerator<Uint8Array> {
  const buf = Buffer.allocUnsafe(CHUNK_BYTES);
  for (let at = 0; at < size;) {
    let n: number;
    try {
      ({ bytesRead: n } = await handle.read(buf, 0, Math.min(buf.length, size - at), at));
    } catch (e) {
      throw new InputError({ source: path }, '', `the effects file cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`, 'Check the file and its disk.');
    }
    if (n === 0) return; // cut short since it was opened
    at += n;
    yield buf.subarray(0, n);
  }
}

/** The effects file `path` as rows; `close` releases it (also when its rows were not all read). */
export async function openEffectsFile(path: string): Promise<RawRows & RowLines> {
  const { handle, size } = await opened(path);
  const text = lines(chunks(handle, size, path), path);
  const rows = isJsonLines(path) ? jsonlRows(text, path) : csvRows(text, path);
  return {
    where: rows.where,
    columns: () => rows.columns(),
    rows: () => rows.rows(),
    lineOfLast: () => rows.lineOfLast(),
    close: async () => {
      try { await rows.close(); } finally { await handle.close(); }
    },
  };
}
