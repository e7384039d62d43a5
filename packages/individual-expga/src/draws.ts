import type { Rng } from '@fb/core';

/** The random draws the operators use: a seeded `Rng` in a run, a scripted stand-in in unit tests. */
export type Draws = Pick<Rng, 'next' | 'int' | 'uniform' | 'normal' | 'weightedIndex'>;
