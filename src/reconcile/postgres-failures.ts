/**
 * What `reconcile --postgres URL --query SQL` can get wrong, each as one InputError (exit 2): the
 * URL checked before anything connects, `--statement-timeout` read, and a driver's or the
 * server's error worded for a person. Never a password (the URL's secrets are remembered and
 * scrubbed from every message, as the probe's are) and never a row's value: a data exception's
 * message (class 22, `invalid input syntax for type integer: "..."`) may quote one, so only its
 * code is shown. Loads no driver: the command's options read from here without loading pg.
 */
import { DURATION_PATTERN, durationSpellingHint, formatDuration, parseDuration } from '../scenario/duration.js';
import { InputError } from '../scenario/errors.js';
import { clipped } from '../scenario/printable.js';
import { POSTGRES } from '../stores/postgres/descriptor.js';
import { hideSecrets, rememberSecrets, redactUrl } from '../stores/redact.js';

export const URL_OPTION = '--postgres';
export const QUERY_OPTION = '--query';
export const TIMEOUT_OPTION = '--statement-timeout';

/** PostgreSQL's statement_timeout is an int of milliseconds. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

export interface PostgresUrl {
  /** As given, for the driver. */
  url: string;
  /** Secrets hidden, for messages. */
  display: string;
}

const FORM = `${POSTGRES.urlForms} (a password in PGPASSWORD or ~/.pgpass keeps it off the command line)`;
/** Query keys passed to node-pg: reaching and authenticating to the server, and its startup options (a search_path). */
const ALLOWED_QUERY = [...POSTGRES.allowedQuery.filter((k) => k !== 'statement_timeout'), 'options', 'application_name'];

/** The URL of `--postgres`, checked before it connects; its secrets remembered so that no message shows them. */
export function postgresUrl(text: string): PostgresUrl {
  rememberSecrets(text);
  const display = redactUrl(text);
  const bad = (problem: string, fix = `Write it as ${FORM}.`): never => {
    throw new InputError({ source: `${URL_OPTION} ${display}` }, '', problem, fix);
  };
  if (text.trim() === '') bad('is empty');
  if (text !== text.trim()) bad('has spaces around it', 'Remove them (quote the URL in the shell).');
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return bad('is not a URL');
  }
  if (!POSTGRES.schemes.includes(u.protocol.toLowerCase())) bad(`is not a PostgreSQL URL (its scheme is "${clipped(u.protocol.replace(/:$/, ''), 40)}")`);
  if (text.slice(text.indexOf('://') + 3).replace(/^[^/?#]*/, '').includes('@')) {
    bad('is not a URL that can be read safely (an "@" after the host: a password with "/" in it?)', 'Percent-encode "/", "?", "#" and "@" in the user and password (/ as %2F, @ as %40).');
  }
  for (const [part, value] of [['user name', u.username], ['password', u.password]] as const) {
    try { decodeURIComponent(value); } catch {
      bad(`the ${part} holds a % that does not start an escape`, 'Percent-encode a literal % as %25 (and /, ?, #, @ likewise).');
    }
  }
  for (const key of new Set(u.searchParams.keys())) {
    if (key === 'statement_timeout') bad('sets statement_timeout, which reconcile sets itself', `Remove ?statement_timeout= and give ${TIMEOUT_OPTION} instead (such as ${TIMEOUT_OPTION} 15m).`);
    if (!ALLOWED_QUERY.includes(key)) bad(`has the option ?${clipped(key, 40)}=, which reconcile does not pass to node-pg`, `Remove it; reconcile accepts ${ALLOWED_QUERY.map((k) => `?${k}=`).join(', ')}.`);
  }
  POSTGRES.checkUrl(u, bad);
  return { url: text, display };
}

/** `--statement-timeout`: a duration with its unit, more than 0 and at most PostgreSQL's 24.8 days. */
export function statementTimeoutOption(text: string): number {
  const bad = (problem: string, fix: string): never => {
    throw new InputError({ source: `${TIMEOUT_OPTION} ${clipped(text, 80)}` }, '', problem, fix);
  };
  if (/^\s*[0-9.]+\s*$/.test(text) && Number(text) !== 0) bad('the duration has no unit', `Write the unit: ${text.trim()}m for minutes, ${text.trim()}s for seconds.`);
  if (!new RegExp(DURATION_PATTERN).test(text)) bad(`"${clipped(text, 80)}" is not a duration`, durationSpellingHint(text) || 'Write it as 30s, 5m or 1h.');
  const ms = Math.round(parseDuration(text));
  if (ms < 1) bad('is 0, which PostgreSQL reads as no timeout at all', 'Give a duration such as 5m (the default) or 1h.');
  if (ms > MAX_TIMEOUT_MS) bad('is longer than PostgreSQL can wait (24.8 days)', 'Give at most 24d.');
  return ms;
}

/** An error of the driver or the server, as much of it as may be shown. */
interface PgError { code?: unknown; message?: unknown; position?: unknown; hint?: unknown }

const codeOf = (e: unknown): string => (typeof (e as PgError)?.code === 'string' ? (e as PgError).code as string : '');
const messageOf = (e: unknown): string => {
  const m = (e as PgError)?.message;
  return hideSecrets(typeof m === 'string' && m !== '' ? m : String(e));
};
/** The message with its code, as the probe shows a driver's error. */
const reason = (e: unknown): string => {
  const [code, message] = [codeOf(e), messageOf(e)];
  return code !== '' && !message.includes(code) ? `${message}, ${code}` : message;
};
const rowsRead = (rows: number): string => `after ${rows.toLocaleString('en-US')} row${rows === 1 ? '' : 's'}`;

/** Connecting failed: the server refused, is not there, or would not let this user in. */
export function connectFailure(url: PostgresUrl, e: unknown): InputError {
  const code = codeOf(e);
  const fix = code === '3D000' ? 'Name a database that exists at the end of the URL (postgres://user@host:5432/DATABASE).'
    : code === '28P01' || code === '28000' ? 'Give a user and password PostgreSQL accepts: in the URL, or the password in PGPASSWORD or ~/.pgpass.'
    : `Start PostgreSQL there, or give ${URL_OPTION} the URL of a PostgreSQL you can reach.`;
  return new InputError({ source: `${URL_OPTION} ${url.display}` }, '', `cannot connect to PostgreSQL (${reason(e)})`, fix);
}

/** The connection ended under the query: the server or its operator ended the session, or the network went. */
function isLost(e: unknown): boolean {
  const code = codeOf(e);
  return /^(57P0[123]|08...|25P03|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH)$/.test(code)
    || (code === '' && /Connection terminated|terminated unexpectedly|not queryable|Query read timeout|socket/i.test(messageOf(e)));
}

export interface FailureContext {
  url: PostgresUrl;
  /** The query's settings, for the words of a timeout. */
  statementTimeoutMs: number;
  idleTimeoutMs: number;
  /** Characters before the query in the statement the server saw (`DECLARE ... FOR `), to place a syntax error in the query. */
  prefixLength: number;
  /** Rows read before it failed. */
  rows: number;
}

/** Declaring the cursor or fetching from it failed: the query's fault, a timeout, or a connection lost. */
export function queryFailure(e: unknown, c: FailureContext): InputError {
  const code = codeOf(e);
  const onQuery = (problem: string, fix: string) => new InputError({ source: QUERY_OPTION }, '', problem, fix);
  if (code === '57014' && /statement timeout/i.test(messageOf(e))) {
    return onQuery(`took longer than the statement timeout of ${formatDuration(c.statementTimeoutMs)}, and PostgreSQL cancelled it${c.rows > 0 ? ` ${rowsRead(c.rows)}` : ''} (${reason(e)})`,
      `Allow longer with ${TIMEOUT_OPTION} (such as ${TIMEOUT_OPTION} 30m), or make the query cheaper (a WHERE on an indexed time column, a shorter span).`);
  }
  if (code === '25P03') {
    return new InputError({ source: `${URL_OPTION} ${c.url.display}` }, '', `PostgreSQL ended the session ${rowsRead(c.rows)}: the reader was idle in its transaction for longer than ${formatDuration(c.idleTimeoutMs)} (${reason(e)})`,
      'Run it again on a machine that is not overloaded or suspended.');
  }
  if (isLost(e)) {
    return new InputError({ source: `${URL_OPTION} ${c.url.display}` }, '', `lost the connection to PostgreSQL ${rowsRead(c.rows)} (${reason(e)})`,
      'Run it again; if it recurs, ask the database\'s operators what ends long sessions (pg_terminate_backend, a restart or failover, a proxy\'s timeout).');
  }
  if (code.startsWith('22')) {
    return onQuery(`PostgreSQL stopped it ${rowsRead(c.rows)} at a value it could not convert or compute (SQLSTATE ${code}; the server's message is not shown: it may quote a row's value)`,
      'Check the casts and arithmetic of the query against the data (psql shows the full message).');
  }
  return onQuery(`PostgreSQL cannot run it (${reason(e)}${placeOf(e, c.prefixLength)}${hintOf(e)})`, queryFix(code));
}

const placeOf = (e: unknown, prefixLength: number): string => {
  const at = Number((e as PgError).position);
  return Number.isInteger(at) && at > prefixLength ? `, at character ${at - prefixLength} of the query` : '';
};

const hintOf = (e: unknown): string => {
  const hint = (e as PgError).hint;
  return typeof hint === 'string' && hint !== '' && codeOf(e).startsWith('42') ? `; ${clipped(hideSecrets(hint), 300)}` : '';
};

function queryFix(code: string): string {
  switch (code) {
    case '42601': return 'Give one SELECT statement (WITH ... SELECT, VALUES and TABLE also serve): reconcile reads it through a cursor in a read-only transaction.';
    case '42P01': return 'Name a table the database has (schema-qualified, such as billing.refunds, if it is not on the search path), or connect to the database that holds it.';
    case '42703': return 'Name columns the query\'s tables have (psql\'s \\d TABLE lists them).';
    case '42501': return 'Connect as a user that may read it (GRANT SELECT ON the table TO the user).';
    case '25006': return 'The query runs in a read-only transaction: give one that changes nothing.';
    default: return 'Run the query in psql to see why, and correct it.';
  }
}
