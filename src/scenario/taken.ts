/**
 * An option's value as a room reads it: its value, read when taken (the shell's Given keeps a
 * text's error and raises it then, so which of several bad options is reported stays the same),
 * and its text as given, for messages and replay lines. A room takes the shell's Given as one.
 */
export interface Taken<T> {
  readonly value: T;
  readonly text: string;
}
