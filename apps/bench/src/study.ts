import type { Budget } from '@fb/core';
import type { PlantedPairOptions } from '@fb/synth';

/** One method configuration of a study: a registered method id, a label and its options. */
export interface MethodPlan {
  label: string;
  method: string;
  options: Record<string, unknown>;
}

/** A study: generator settings, methods, budgets and seeds. Cells are their Cartesian product. */
export interface Study {
  name: string;
  description: string;
  seeds: number[];
  /** Generator settings, one scenario each. */
  scenarios: { label: string; generator: Partial<PlantedPairOptions> }[];
  model: { kind: 'logistic-regression'; l2: number };
  methods: MethodPlan[];
  budget: Budget;
}

const slice: Omit<Study, 'name' | 'description' | 'seeds'> = {
  scenarios: [
    {
      label: 'strong bias',
      generator: { rows: 5000, otherAttributes: 8, otherValues: 5, bias: -2.5, granularity: 1 },
    },
    {
      label: 'weak bias',
      generator: { rows: 5000, otherAttributes: 8, otherValues: 5, bias: -1, granularity: 1 },
    },
  ],
  model: { kind: 'logistic-regression', l2: 1 },
  methods: [
    {
      label: 'AEQUITAS random',
      method: 'aequitas',
      options: { strategy: 'random', globalIterations: 1000, localIterations: 1000 },
    },
    {
      label: 'AEQUITAS fully-directed',
      method: 'aequitas',
      options: { strategy: 'fully-directed', globalIterations: 1000, localIterations: 1000 },
    },
    {
      label: 'BiasScan (Bernoulli)',
      method: 'mdss-bias-scan',
      options: { scoring: 'bernoulli', randomizationReplicates: 50 },
    },
  ],
  budget: { maxSeconds: 20, maxTested: 20_000 },
};

export const studies: Record<string, Study> = {
  default: {
    name: 'default',
    description:
      'The first slice: a planted biased pair, logistic regression, AEQUITAS and the MDSS bias scan.',
    seeds: [1, 2, 3],
    ...slice,
  },
  smoke: {
    name: 'smoke',
    description: 'One seed of the default study with small budgets, for a quick check.',
    seeds: [1],
    ...slice,
    scenarios: slice.scenarios.slice(0, 1),
    budget: { maxSeconds: 5, maxTested: 2000 },
  },
};

/** One unit of work: a scenario, a seed and a method. */
export interface Cell {
  key: string;
  scenario: Study['scenarios'][number];
  seed: number;
  plan: MethodPlan;
}

export function expandCells(study: Study): Cell[] {
  const cells: Cell[] = [];
  for (const scenario of study.scenarios) {
    for (const seed of study.seeds) {
      for (const plan of study.methods) {
        cells.push({ key: `${scenario.label}|${seed}|${plan.label}`, scenario, seed, plan });
      }
    }
  }
  return cells;
}
