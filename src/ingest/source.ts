/**
 * What every reader of latency data shares: where the text came from (for errors at its lines),
 * whether names read from it may be shown, the histogram a reader finds, and that histogram
 * checked and turned into ms (model/latency/histogram-data.ts).
 */
import { bucketProblem, histogramValues, HISTOGRAM_UNITS, UNIT_MS, type HistogramBucket, type HistogramUnit } from '../model/latency/histogram-data.js';
import { InputError } from '../scenario/errors.js';
import { clipped, printable } from '../scenario/printable.js';

export interface Source {
  /** The file or URL, as the user named it. */
  readonly source: string;
  /** The key that names the file (`service.latency.file`), or '' on the command line. */
  readonly keyPath: string;
  /**
   * Whether names read from the text (metrics, labels, spans) may be shown in a message: only
   * for the user's own input on the command line, never for a file a scenario names (it may be
   * anything readable, and messages reach CI logs).
   */
  readonly showNames: boolean;
  /** How the user gives a setting, for a fix: `with metric: in the scenario`, `with --metric`. */
  readonly how: (key: 'metric' | 'unit' | 'format') => string;
  /**
   * What a text read from the input becomes before a message shows it: for an answer over HTTP,
   * which may quote the credentials it was sent, their redaction (remote/http.ts). Applied to the
   * texts alone (echoed), never to a message's own words.
   */
  readonly redact?: (text: string) => string;
}

/** A text read from the input (or a name the user gave) as a message shows it: redacted where the source says, printable, clipped to `max`. */
export const echoed = (src: Source, text: string, max: number): string => clipped(printable(src.redact ? src.redact(text) : text), max);

/** Refuses the input at a line of it (or as a whole). */
export function refuse(src: Source, line: number | undefined, problem: string, fix: string): never {
  throw new InputError(line === undefined ? { source: src.source } : { source: src.source, line }, src.keyPath, problem, fix);
}

/**
 * The histogram's name as an error may show it: the metric the user named, the file's own name
 * only when the input is the user's own (showNames; printable), else "its histogram".
 */
export function histogramName(src: Source, found: string, asked: string | undefined): string {
  if (asked !== undefined) return echoed(src, asked, 80);
  return src.showNames ? echoed(src, found, 80) : 'its histogram';
}

/** The example selector of an error's fix: with the histogram's name where it may be shown, else NAME. */
export const selectorExample = (src: Source, found: string, asked: string | undefined, labels: string): string =>
  `${asked !== undefined || src.showNames ? histogramName(src, found, asked) : 'NAME'}${labels}`;

/** Names read from the input, for a message: shown clipped and printable where allowed, else counted. */
export function namesText(src: Source, names: readonly string[], noun: string): string {
  const n = `${names.length} ${noun}${names.length === 1 ? '' : 's'}`;
  if (!src.showNames) return n;
  const shown = names.slice(0, 8).map((x) => echoed(src, x, 80));
  return `${n}: ${shown.join(', ')}${names.length > shown.length ? `, and ${names.length - shown.length} more` : ''}`;
}

/** A histogram as a reader finds it: finite cumulative buckets with bounds in `unit`, and all observations. */
export interface FoundHistogram {
  readonly buckets: readonly HistogramBucket[];
  /** All observations (the +Inf bucket); null where the source gives none: the last bucket's count. */
  readonly total: number | null;
  readonly unit: HistogramUnit;
  /** How the unit was decided, for a note ("the metric's name ends in _seconds"). */
  readonly unitFrom: string;
  /** The line each bucket was read from, where the source has lines. */
  readonly lines?: readonly number[];
  /** The line of the total. */
  readonly totalLine?: number;
  /** The metric's (or span's) name and its series' labels, for the output of `fit`. */
  readonly name: string;
  readonly labels: ReadonlyMap<string, string>;
}

/** The found histogram's buckets in ms, checked: an error names the line of the bucket at fault. */
export function checkedValues(src: Source, h: FoundHistogram): HistogramBucket[] {
  const found = bucketProblem(h.buckets, h.total, UNIT_MS[h.unit]);
  if (found) refuse(src, found.index === null ? (found.field === 'total' ? h.totalLine : undefined) : h.lines?.[found.index], found.problem, found.fix);
  return histogramValues(h.buckets, h.total, UNIT_MS[h.unit]);
}

/** Unit words of metric names and OpenTelemetry's unit strings (UCUM), by unit. */
const UNIT_WORDS: Readonly<Record<string, HistogramUnit>> = {
  seconds: 's', second: 's', s: 's', milliseconds: 'ms', millisecond: 'ms', ms: 'ms',
  microseconds: 'us', microsecond: 'us', us: 'us', nanoseconds: 'ns', nanosecond: 'ns', ns: 'ns',
};

/** A unit as a metric's name ends (`_seconds`, `_ms`) or as OpenMetrics' `# UNIT` line and OTLP's unit field give it; undefined when none is known. */
export function unitOfWord(word: string): HistogramUnit | undefined {
  const w = word.toLowerCase();
  return Object.hasOwn(UNIT_WORDS, w) ? UNIT_WORDS[w] : undefined;
}

/** The unit a metric's name ends in (`http_request_duration_seconds`), if any. */
export function unitOfName(name: string): HistogramUnit | undefined {
  const last = /_([a-z]+)$/i.exec(name)?.[1];
  return last === undefined ? undefined : unitOfWord(last);
}

/** The units a user may give, for a fix. */
export const UNITS_TEXT = HISTOGRAM_UNITS.join(', ');
