/**
 * The kinds of a scenario parameter, as data. `model/shape.ts` declares every key of the scenario
 * with one of these; from that one declaration come the `Scenario` type, the defaults, the JSON
 * Schema (`scenario/schema.ts`), the resolver that turns a written file into milliseconds
 * (`scenario/resolve.ts`) and which key paths hold durations. A kind is data, never prose: the
 * schema's descriptions are made from it, not read back.
 *
 * `meaning` is the parenthesised phrase of the schema's description and of error messages
 * ("a probability between 0 and 1 (chance a reply is lost)").
 */

export interface Probability { readonly kind: 'probability'; readonly default: number; readonly meaning: string }
/** A whole number from `min` (up to `max`, when one is set); without a default the key is required where it appears (an optional section's). */
export interface Count { readonly kind: 'count'; readonly default?: number; readonly min: number; readonly max?: number; readonly meaning: string }
/** A whole number in [min, max], or `unbounded` (null). */
export interface CountOrUnbounded { readonly kind: 'count_or_unbounded'; readonly default: number | null; readonly min: number; readonly max: number; readonly meaning: string }
/** A real number in [min, max]; `description` is the whole phrase (these read best written out). */
export interface Real { readonly kind: 'number'; readonly default?: number; readonly min: number; readonly max: number; readonly description: string }
export interface Flag { readonly kind: 'flag'; readonly default: boolean; readonly meaning: string }
export interface Choice<T extends string = string> { readonly kind: 'choice'; readonly values: readonly T[]; readonly default?: T; readonly meaning: string }
/**
 * A duration in ms; without a default the key is required where it appears (a latency form's keys).
 * `positive`: 0 is refused by a check of its own (with the reason), so the key is described as above 0.
 */
export interface Duration { readonly kind: 'duration'; readonly default?: number; readonly meaning: string; readonly positive?: true }
/** A list of `min` to `max` durations (a schedule of waits), each written as a duration is. */
export interface Durations { readonly kind: 'durations'; readonly default: readonly number[]; readonly min: number; readonly max: number; readonly meaning: string }
/** A duration or `none` (null), `none` by default. */
export interface OptionalDuration { readonly kind: 'optional_duration'; readonly meaning: string }
/** A closed range {min, max} of durations, drawn uniformly. */
export interface Range { readonly kind: 'range'; readonly default: DelayRange; readonly meaning: string }
/** A non-empty string (of `pattern`, when one is set); `description` is the whole phrase. */
export interface Text { readonly kind: 'text'; readonly description: string; readonly pattern?: string }
/** A latency distribution: one of the forms of `model/latency.ts`. */
export interface Latency { readonly kind: 'latency' }
/** A mixture's list of latency distributions, each with a weight. */
export interface Components { readonly kind: 'components'; readonly description: string }
export interface Section<P extends Params = Params> { readonly kind: 'section'; readonly meaning: string; readonly params: P }
/** Values a preset of an optional section fills in, as a file writes them, and where they come from. */
export interface SectionPreset { readonly source: string; readonly values: Readonly<Record<string, unknown>> }
/**
 * A section that may be left out: `none` (also null, or absent) resolves to null, a mapping to
 * the section with its defaults filled in, and the name of one of `presets` to that preset's values.
 */
export interface Optional<P extends Params = Params> {
  readonly kind: 'optional'; readonly meaning: string; readonly params: P; readonly presets: Readonly<Record<string, SectionPreset>>;
}
/** A list of mappings of one shape (incidents, alerts, a load profile), `none` or empty by default; at most `max` items. */
export interface List<S extends Section = Section> { readonly kind: 'list'; readonly of: S; readonly max: number; readonly meaning: string }
/** A value that replaces the scenario's own where it applies (an incident's), or null (absent: no change). */
export interface Override<P extends Overridable = Overridable> { readonly kind: 'override'; readonly of: P }
/** The kinds an incident window may override. */
export type Overridable = Probability | Real | Flag | Count;

export type Param = Probability | Count | CountOrUnbounded | Real | Flag | Choice | Duration | Durations | OptionalDuration | Range | Text | Latency | Components | Section | Optional | List | Override;
export type Params = { readonly [key: string]: Param };

/** A closed interval of durations in ms, drawn uniformly. */
export interface DelayRange { min: number; max: number }

/** The value a parameter resolves to, with `L` the type of a latency distribution. */
export type ValueOf<P, L> =
  P extends Probability | Count | Real | Duration ? number
  : P extends Flag ? boolean
  : P extends Choice<infer T> ? T
  : P extends OptionalDuration | CountOrUnbounded ? number | null
  : P extends Durations ? number[]
  : P extends Range ? DelayRange
  : P extends Text ? string
  : P extends Latency ? L
  : P extends Components ? readonly (L & { weight: number })[]
  : P extends Section<infer Q> ? { -readonly [K in keyof Q]: ValueOf<Q[K], L> }
  : P extends Optional<infer Q> ? { -readonly [K in keyof Q]: ValueOf<Q[K], L> } | null
  : P extends List<infer S> ? ValueOf<S, L>[]
  : P extends Override<infer Q> ? ValueOf<Q, L> | null
  : never;

export const probability = (def: number, meaning: string): Probability => ({ kind: 'probability', default: def, meaning });
export const count = (def: number | undefined, meaning: string, min = 0, max?: number): Count => ({
  kind: 'count', ...(def === undefined ? {} : { default: def }), min, ...(max === undefined ? {} : { max }), meaning,
});
export const countOrUnbounded = (def: number | null, meaning: string, min: number, max: number): CountOrUnbounded => ({ kind: 'count_or_unbounded', default: def, min, max, meaning });
export const real = (def: number | undefined, min: number, max: number, description: string): Real => ({ kind: 'number', ...(def === undefined ? {} : { default: def }), min, max, description });
export const flag = (def: boolean, meaning: string): Flag => ({ kind: 'flag', default: def, meaning });
export const choice = <T extends string>(values: readonly T[], def: NoInfer<T> | undefined, meaning: string): Choice<T> => ({ kind: 'choice', values, ...(def === undefined ? {} : { default: def }), meaning });
export const duration = (def: number | undefined, meaning: string): Duration => ({ kind: 'duration', ...(def === undefined ? {} : { default: def }), meaning });
export const positiveDuration = (def: number | undefined, meaning: string): Duration => ({ ...duration(def, meaning), positive: true });
export const durations = (def: readonly number[], meaning: string, min: number, max: number): Durations => ({ kind: 'durations', default: def, min, max, meaning });
export const optionalDuration = (meaning: string): OptionalDuration => ({ kind: 'optional_duration', meaning });
export const range = (def: DelayRange, meaning: string): Range => ({ kind: 'range', default: def, meaning });
export const text = (description: string, pattern?: string): Text => ({ kind: 'text', description, ...(pattern === undefined ? {} : { pattern }) });

/** Key-path parts that would reach a JavaScript object's prototype instead of a key of its own. */
export const FORBIDDEN_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype'];

/**
 * A name that key paths may hold (`alerts.NAME.false_alarms` in expect:): letters, digits, _ and
 * -, and none of FORBIDDEN_KEYS, which would reach an object's prototype wherever a name is used
 * as a key. `end` is what follows the name in the pattern it is part of (`$`, or `\\.`).
 */
export const namePattern = (end: string): string => `(?!(?:${FORBIDDEN_KEYS.join('|')})${end})[A-Za-z0-9_][A-Za-z0-9_-]{0,63}`;
export const NAME_PATTERN = `^${namePattern('$')}$`;
/** How NAME_PATTERN reads in an error and in the schema's descriptions. */
export const NAME_FORM = `a name of letters, digits, _ and -, at most 64 (not ${FORBIDDEN_KEYS.slice(0, -1).join(', ')} or ${FORBIDDEN_KEYS.at(-1)})`;
export const section = <P extends Params>(meaning: string, params: P): Section<P> => ({ kind: 'section', meaning, params });
export const list = <S extends Section>(meaning: string, max: number, of: S): List<S> => ({ kind: 'list', of, max, meaning });
export const optional = <P extends Params>(meaning: string, params: P, presets: Readonly<Record<string, SectionPreset>> = {}): Optional<P> => ({ kind: 'optional', meaning, params, presets });
export const override = <P extends Overridable>(of: P): Override<P> => ({ kind: 'override', of });

/** Whether a key of a list's item or of an optional section must be written (it has no default). */
export function required(p: Param): boolean {
  return (p.kind === 'duration' || p.kind === 'number' || p.kind === 'choice' || p.kind === 'count') ? p.default === undefined : p.kind === 'text';
}

/** The keys of a section or an optional section that must be written. */
export const requiredKeys = (params: Params): string[] => Object.keys(params).filter((k) => required(params[k] as Param));

/** A range's two ends, as durations of their own (for the schema and for key paths such as `twin_delay.min`). */
export const rangeEnds = (r: Range): { min: Duration; max: Duration } => ({
  min: duration(r.default.min, `shortest ${r.meaning}`),
  max: duration(r.default.max, `longest ${r.meaning}`),
});
