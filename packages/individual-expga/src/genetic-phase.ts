import type { ProtectedVariants } from '@fb/core';
import {
  CheckStatus,
  type CounterfactualChecker,
  type CountingClassifier,
  type Rng,
  type RunController,
} from '@fb/core';
import { probabilityGap } from './fitness.js';
import { crossover, type GeneSampler, mutate, select } from './operators.js';
import type { Fitness } from './options.js';

export interface GeneticSettings {
  generations: number;
  crossoverRate: number;
  mutationRate: number;
  fitness: Fitness;
  referenceOperators: boolean;
}

export interface GeneticResult {
  generations: number;
  tested: number;
  discriminatory: number;
  /** Mean fitness of the population in the last evaluated generation. */
  meanFitness: number;
}

/**
 * ExpGA's genetic algorithm. Each generation checks the whole population in one batch (every new
 * individual is a tested sample; a known one costs nothing), scores it, then breeds the next
 * population by roulette selection, crossover and mutation.
 */
export async function runGenetic(
  seeds: Float64Array,
  size: number,
  checker: CounterfactualChecker,
  model: CountingClassifier,
  variants: ProtectedVariants,
  genes: GeneSampler,
  ctl: RunController,
  rng: Rng,
  settings: GeneticSettings,
): Promise<GeneticResult> {
  const { d } = genes;
  let pop = seeds.slice(0, size * d);
  let next = new Float64Array(size * d);
  const fitness = new Float64Array(size);
  const result: GeneticResult = { generations: 0, tested: 0, discriminatory: 0, meanFitness: 0 };
  for (let g = 0; g < settings.generations; g++) {
    if (await ctl.checkpoint({ phase: 'genetic', done: g, total: settings.generations })) break;
    const { status, fresh } = checker.check(pop);
    let skipped = false;
    for (let i = 0; i < size; i++) {
      if (status[i] === CheckStatus.Skipped) skipped = true;
      if (fresh[i] === 0) continue;
      result.tested++;
      if (status[i] === CheckStatus.Discriminatory) result.discriminatory++;
    }
    if (skipped) {
      ctl.shouldStop(); // records which budget ran out
      break;
    }
    if (settings.fitness === 'probability') fitness.set(probabilityGap(model, variants, pop, size));
    else for (let i = 0; i < size; i++) fitness[i] = status[i] === CheckStatus.Discriminatory ? 3 : 1;
    let sum = 0;
    for (let i = 0; i < size; i++) sum += fitness[i]!;
    result.meanFitness = sum / size;
    result.generations++;
    const chosen = select(rng, fitness, size);
    for (let i = 0; i < size; i++) next.set(pop.subarray(chosen[i]! * d, (chosen[i]! + 1) * d), i * d);
    [pop, next] = [next, pop];
    crossover(rng, pop, size, d, settings.crossoverRate, settings.referenceOperators);
    mutate(rng, pop, size, genes, settings.mutationRate);
  }
  return result;
}
