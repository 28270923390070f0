/**
 * An MCP server's tools, asked as clients ask them: the server started over stdio by
 * @modelcontextprotocol/sdk's StdioClientTransport (the SDK's safe environment, plus what
 * --env adds), `initialize`, then `tools/list` page by page. One deadline bounds the whole
 * exchange; the server is always killed and waited for (on success it is first asked to end by
 * closing its input, as the SDK closes); its standard error is kept only as a short tail for
 * the error. The SDK is loaded here only, when `--stdio` is used (cli/inventory.ts asks; the
 * answer is read by inventory/mcp.ts, as a saved list is).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { setMaxListeners } from 'node:events';
import { Interrupted } from '../exec/interrupted.js';
import { MAX_LIST_BYTES, MAX_PAGES, STDERR_TAIL_CHARS } from '../inventory/limits.js';
import { checkUnique, readToolsList, type McpTool } from '../inventory/mcp.js';
import { InputError, type Origin } from '../scenario/errors.js';
import { formatDuration } from '../scenario/duration.js';
import { clipped, printable } from '../scenario/printable.js';
import { shellQuote } from '../scenario/shell-quote.js';

export interface ServerTools {
  readonly tools: readonly McpTool[];
  /** The server's name and version, as its answer to initialize gives them (none when its name is empty). */
  readonly server: { readonly name: string; readonly version: string | undefined } | undefined;
}

/** How long a killed server may take to be gone (its pipes closed) before idem-sim stops waiting. */
const REAP_WAIT_MS = 2_000;
/** What the error advises when a server does not answer as MCP says. */
const FIX = 'Check that the command after -- starts an MCP server that speaks over its standard input and output (the arguments a server needs, such as --stdio or a path, go after it too), and that it writes nothing but MCP messages on its standard output (logs go to standard error).';

/**
 * The server's process as the transport runs it: its standard error's tail, its end, and a kill.
 * Its id is kept from the start: the transport forgets it as soon as it begins to close (a
 * message too large, a failed initialize), while the process may live on.
 */
class Child {
  private tail = '';
  private exited = false;
  private pid: number | null = null;
  readonly gone: Promise<void>;
  private readonly onExit = () => this.kill(); // idem-sim exiting at once (a second signal) takes the server with it

  constructor(transport: StdioClientTransport, onClose: () => void) {
    const start = transport.start.bind(transport);
    transport.start = async () => {
      await start();
      this.pid = transport.pid;
    };
    this.gone = new Promise((resolve) => {
      transport.onclose = () => { this.exited = true; onClose(); resolve(); };
    });
    transport.stderr?.on('data', (chunk: Buffer) => { this.tail = (this.tail + chunk.toString('utf8')).slice(-2 * STDERR_TAIL_CHARS); });
    process.on('exit', this.onExit);
  }

  /** The last lines of its standard error, on one line, printable and clipped; '' when it wrote none. */
  stderrTail(): string {
    const lines = this.tail.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
    const text = printable(lines.slice(-3).join(' | '));
    return text.length <= STDERR_TAIL_CHARS ? text : `...${text.slice(-STDERR_TAIL_CHARS)}`;
  }

  kill(): void {
    if (this.exited || this.pid === null) return;
    try { process.kill(this.pid, 'SIGKILL'); } catch { /* gone already */ }
  }

  /** Ends it: closing its input first when it did its part (the SDK ends one that lingers), else at once; then waits for it. */
  async end(client: Client, gently: boolean): Promise<void> {
    if (gently) await client.close().catch(() => undefined);
    this.kill();
    await Promise.race([this.gone, new Promise((resolve) => setTimeout(resolve, REAP_WAIT_MS).unref())]);
    process.off('exit', this.onExit);
  }
}

/** What went wrong on the transport: a message too large, or a line that is no MCP message. */
function transportProblem(e: Error): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'could not be started: no such command (it runs without a shell, found through PATH)';
  if (code === 'EACCES') return 'could not be started: permission denied (is it executable?)';
  if (code) return `could not be started or written to (${code})`;
  if (/ReadBuffer exceeded/.test(e.message)) return `sent a message over the limit of ${MAX_LIST_BYTES / 1024 / 1024} MiB`;
  return 'wrote a line on its standard output that is not an MCP (JSON-RPC) message; MCP\'s stdio transport carries nothing else there';
}

/** The error of a failed exchange, from what was seen: a stop, a transport problem, the deadline, the server's end, or its answer. */
function failure(e: unknown, s: { phase: string; problem: string | undefined; timedOut: boolean; closed: boolean; timeoutMs: number; origin: Origin; tail: string }): Error {
  if (e instanceof InputError) return e;
  const tail = s.tail ? ` Its standard error ended: "${s.tail}".` : '';
  const refuse = (problem: string, fix = FIX) => new InputError(s.origin, '', `${problem}`, `${fix}${tail}`);
  if (s.problem) return refuse(`${s.problem} (during ${s.phase})`);
  if (s.timedOut) {
    return refuse(`did not finish within ${formatDuration(s.timeoutMs)} (it was at ${s.phase})`, `${FIX} A server that is slow to start may be given longer: --timeout 30s.`);
  }
  if (s.closed) return refuse(`ended before it answered ${s.phase}`);
  const err = e as { code?: unknown; message?: unknown; issues?: { path?: unknown[]; message?: unknown }[] };
  if (Array.isArray(err.issues)) {
    const first = err.issues[0];
    const at = Array.isArray(first?.path) && first.path.length > 0 ? ` at ${clipped(first.path.join('.'), 80)}` : '';
    return refuse(`answered ${s.phase} with something that is not what MCP defines${at}: ${clipped(String(first?.message ?? ''), 120)}`);
  }
  if (typeof err.code === 'number') return refuse(`answered ${s.phase} with an error: ${clipped(String(err.message), 200)}`);
  return refuse(`failed during ${s.phase}: ${clipped(String(err.message ?? e), 200)}`);
}

/** Every page of tools/list, each read as a saved list is (inventory/mcp.ts). */
async function listAll(client: Client, resultSchema: Parameters<Client['request']>[1], at: (phase: string) => void, origin: Origin, opts: { signal: AbortSignal; timeout: number }): Promise<McpTool[]> {
  const tools: McpTool[] = [];
  const cursors = new Set<string>();
  for (let page = 1, cursor: string | undefined; ; page++) {
    at(page === 1 ? 'tools/list' : `tools/list (page ${page})`);
    const from = { origin, fix: FIX, ...(page > 1 ? { at: `page ${page}: ` } : {}) };
    const result = await client.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, resultSchema, opts);
    const read = readToolsList(result, from, tools.length);
    tools.push(...read.tools);
    if (read.nextCursor === undefined) return tools;
    if (cursors.has(read.nextCursor) || page >= MAX_PAGES) {
      throw new InputError(origin, `page ${page}: nextCursor`, cursors.has(read.nextCursor) ? 'names a page it named before (the pages go round in a loop)' : `asks for more than ${MAX_PAGES.toLocaleString('en-US')} pages`, FIX);
    }
    cursors.add(read.nextCursor);
    cursor = read.nextCursor;
  }
}

/**
 * The tools of the server `command` starts, within `timeoutMs`. `env`: variables given to it
 * besides the SDK's default safe ones (HOME, LOGNAME, PATH, SHELL, TERM, USER). `signal`: a stop
 * signal, which ends the exchange (Interrupted) with the server killed. `version`: idem-sim's, as
 * the client names itself to the server.
 */
export async function serverTools(command: readonly string[], env: Readonly<Record<string, string>>, signal: AbortSignal, timeoutMs: number, version: string): Promise<ServerTools> {
  const [{ Client }, { StdioClientTransport }, { ResultSchema }] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'), import('@modelcontextprotocol/sdk/client/stdio.js'), import('@modelcontextprotocol/sdk/types.js')]);
  if (signal.aborted) throw new Interrupted();
  const origin = { source: `the server \`${clipped(command.map(shellQuote).join(' '), 200)}\`` };
  const state = { phase: 'its start', problem: undefined as string | undefined, timedOut: false, closed: false, timeoutMs, origin, tail: '' };
  // One stop for every wait: the user's signal, the deadline, or the transport's failure.
  const stop = new AbortController();
  setMaxListeners(MAX_PAGES + 2, stop.signal); // the SDK adds a listener a request (initialize, each page) and never removes it
  const onSignal = () => stop.abort();
  signal.addEventListener('abort', onSignal, { once: true });
  const deadline = setTimeout(() => { state.timedOut = true; stop.abort(); }, timeoutMs);
  const transport = new StdioClientTransport({ command: command[0] as string, args: command.slice(1), env: { ...env }, stderr: 'pipe', maxBufferSize: MAX_LIST_BYTES });
  const child = new Child(transport, () => { state.closed = true; stop.abort(); });
  transport.onerror = (e) => {
    if (!stop.signal.aborted) state.problem = transportProblem(e);
    stop.abort();
  };
  const client = new Client({ name: 'idem-sim', version }, { capabilities: {} });
  const opts = { signal: stop.signal, timeout: timeoutMs };
  let done = false;
  try {
    state.phase = 'initialize';
    await client.connect(transport, opts);
    const info = client.getServerVersion();
    if (client.getServerCapabilities()?.tools === undefined) {
      throw new InputError(origin, '', 'declares no tools (its answer to initialize has no tools capability)', 'Start a server that offers tools, or save its tools/list answer to a file and give that instead of --stdio.');
    }
    const tools = await listAll(client, ResultSchema, (phase) => { state.phase = phase; }, origin, opts);
    checkUnique(tools, { origin, fix: FIX });
    done = true;
    return { tools, server: info?.name ? { name: info.name, version: info.version } : undefined };
  } catch (e) {
    if (signal.aborted) throw new Interrupted();
    state.tail = child.stderrTail();
    throw failure(e, state);
  } finally {
    clearTimeout(deadline);
    signal.removeEventListener('abort', onSignal);
    await child.end(client, done);
  }
}
