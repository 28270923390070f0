/** The shells `idem-sim completion` writes a script for (a module of its own, so the command line reads the list without loading the scripts). */
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];
