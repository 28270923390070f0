/**
 * An option's value, parsed once: when commander reads the command line (an Option's
 * `argParser`), not by each stage that uses it. A text that does not parse keeps its error,
 * which is raised when the command takes the value, at the step where that option's errors have
 * always come: with several bad options, the one reported stays the same.
 */
import { Option } from 'commander';
import { InputError } from '../../scenario/errors.js';

export class Given<T> {
  private constructor(
    /** The option's text as given, for the replay line and for messages that quote it. */
    readonly text: string,
    private readonly outcome: { readonly value: T } | { readonly error: InputError },
  ) {}

  /** `text` read by `parse`; the InputError it throws is kept for `value` (any other error is a bug, thrown now). */
  static parse<T>(text: string, parse: (text: string) => T): Given<T> {
    try {
      return new Given(text, { value: parse(text) });
    } catch (e) {
      if (e instanceof InputError) return new Given<T>(text, { error: e });
      throw e;
    }
  }

  /** The parsed value; throws the InputError the text gave. */
  get value(): T {
    if ('error' in this.outcome) throw this.outcome.error;
    return this.outcome.value;
  }
}

/** An option whose text `parse` reads into a Given (given twice, the last wins, as for any option). */
export function parsedOption<T>(flags: string, description: string, parse: (text: string) => T): Option {
  return new Option(flags, description).argParser((text: string): Given<T> => Given.parse(text, parse));
}

/** A repeatable option (--set): each value read by `parse`, in the order given. */
export function repeatedOption<T>(flags: string, description: string, parse: (text: string) => T): Option {
  return new Option(flags, description).argParser((text: string, previous: readonly Given<T>[] | undefined): Given<T>[] => [...(previous ?? []), Given.parse(text, parse)]);
}

/** Collects a repeatable option's texts (--vary, whose values the sweep's planner reads). */
export const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];
