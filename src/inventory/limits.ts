/**
 * The bounds of `idem-sim inventory` on what a tools list or an MCP server may hand it (stated in
 * docs/security-and-limits.md). A tools list comes from a server the user may not trust: each
 * bound is checked before what it bounds is kept.
 */

/** A tools list read from a file, and one message from a server: 4 MiB (the largest real lists, schemas and all, are some hundreds of KB). */
export const MAX_LIST_BYTES = 4 * 1024 * 1024;
/** Pages of `tools/list` (each `nextCursor` asks for one more) before the server is taken to be looping. */
export const MAX_PAGES = 1_000;
/** A tool's name as the server gives it, in characters: past this it is refused, not renamed (the MCP specification advises at most 128). */
export const MAX_SERVER_NAME_CHARS = 1_024;
/** A tool's description in the skeleton's comment, in characters once made printable. */
export const MAX_DESCRIPTION_CHARS = 160;
/** How long the whole exchange with a server may take by default (start, initialize, every page), and at most. */
export const DEFAULT_TIMEOUT_MS = 10_000;
export const MAX_TIMEOUT_MS = 10 * 60_000;
/** The end of a server's standard error kept, and shown when the exchange fails, in characters. */
export const STDERR_TAIL_CHARS = 400;
/** Renamed tools listed one by one in the warnings; the others are counted. */
export const MAX_RENAMES_LISTED = 10;
