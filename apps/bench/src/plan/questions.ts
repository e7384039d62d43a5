import { findMethod } from '../methods.js';
import type { Question } from './config.js';

/**
 * The questions a method can answer (docs/study-design.md). Individual methods query the model's
 * counterfactual behaviour: model and model-output questions. Methods that compare labels with a
 * model's predictions (residual scans) see bias in the labels or in a model's output, never bias a
 * model learned along with the labels. VeriFair verifies a model's demographic parity; Fair Naive
 * Bayes audits its own naive Bayes fit of the data.
 */
const QUESTIONS: Record<string, Question[]> = {
  'mdss-bias-scan': ['data', 'model-output'],
  cbs: ['data', 'model-output'],
  gerryfair: ['data', 'model-output'],
  multiaccuracy: ['data', 'model-output'],
  slicefinder: ['data', 'model-output'],
  sliceline: ['data', 'model-output'],
  divexplorer: ['data', 'model-output'],
  'fair-naive-bayes': ['data'],
  verifair: ['model', 'model-output'],
  'value-disparity': ['data', 'model-output'],
  // Blind to labels and model: floors of every subgroup question.
  'random-finder': ['data', 'model', 'model-output'],
  'largest-protected-cells': ['data', 'model', 'model-output'],
  'whole-population': ['data', 'model', 'model-output'],
  'size-matched-random': ['data', 'model', 'model-output'],
};

export function questionsOf(id: string): Question[] {
  const known = QUESTIONS[id];
  if (known) return known;
  return findMethod(id).kind === 'individual' ? ['model', 'model-output'] : ['data', 'model-output'];
}

/** Methods whose cells are floors of the other cells of their block (the per-value disparity scan). */
export const isFloorCell = (id: string): boolean => id === 'value-disparity';
