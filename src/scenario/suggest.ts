import { closest, distance } from 'fastest-levenshtein';

/** The candidate a misspelt word most likely meant, or undefined when none is close. */
export function didYouMean(word: string, candidates: readonly string[]): string | undefined {
  if (candidates.length === 0) return undefined;
  const prefixed = candidates.filter((c) => c.startsWith(word.toLowerCase()));
  if (word.length >= 3 && prefixed.length === 1) return prefixed[0];
  const best = closest(word.toLowerCase(), [...candidates]);
  // Allow about one edit in three characters, at least two: "scpoe" -> "scope", not "x" -> "seed".
  return distance(word.toLowerCase(), best) <= Math.max(2, Math.floor(best.length / 3)) ? best : undefined;
}
