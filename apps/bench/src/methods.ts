import {
  everyVariantUnasked,
  exhaustiveCounterfactual,
  largestProtectedCells,
  randomFinder,
  sizeMatchedRandom,
  uniformDomain,
  valueDisparity,
  wholePopulation,
} from '@fb/baselines';
import type { Detector } from '@fb/core';
import { adf } from '@fb/individual-adf';
import { aequitas } from '@fb/individual-aequitas';
import { expga } from '@fb/individual-expga';
import { fliptest } from '@fb/individual-fliptest';
import { kosei } from '@fb/individual-kosei';
import { limi } from '@fb/individual-limi';
import { sg } from '@fb/individual-sg';
import { biasScan } from '@fb/subgroup-biasscan';
import { cbs } from '@fb/subgroup-cbs';
import { divexplorer } from '@fb/subgroup-divexplorer';
import { fairNaiveBayes } from '@fb/subgroup-fair-naive-bayes';
import { gerryfair } from '@fb/subgroup-gerryfair';
import { multiaccuracy } from '@fb/subgroup-multiaccuracy';
import { slicefinder } from '@fb/subgroup-slicefinder';
import { sliceline } from '@fb/subgroup-sliceline';
import { verifair } from '@fb/subgroup-verifair';
// @new-method:imports (tools/create-method inserts new imports above this line)

/**
 * Every method the study can run, by id. `pnpm new:method` adds new packages here; a study config
 * names methods by these ids.
 */
export const methodRegistry: readonly Detector<object>[] = [
  aequitas as unknown as Detector<object>,
  biasScan as unknown as Detector<object>,
  kosei as unknown as Detector<object>,
  sg as unknown as Detector<object>,
  expga as unknown as Detector<object>,
  adf as unknown as Detector<object>,
  limi as unknown as Detector<object>,
  fliptest as unknown as Detector<object>,
  cbs as unknown as Detector<object>,
  gerryfair as unknown as Detector<object>,
  multiaccuracy as unknown as Detector<object>,
  slicefinder as unknown as Detector<object>,
  sliceline as unknown as Detector<object>,
  divexplorer as unknown as Detector<object>,
  fairNaiveBayes as unknown as Detector<object>,
  verifair as unknown as Detector<object>,
  exhaustiveCounterfactual as unknown as Detector<object>,
  valueDisparity as unknown as Detector<object>,
  randomFinder as unknown as Detector<object>,
  // Outputs that know nothing: the floors a study can also run as rows of their own.
  largestProtectedCells as unknown as Detector<object>,
  wholePopulation as unknown as Detector<object>,
  sizeMatchedRandom as unknown as Detector<object>,
  uniformDomain as unknown as Detector<object>,
  everyVariantUnasked as unknown as Detector<object>,
  // @new-method:entries (tools/create-method inserts new entries above this line)
];

/** The baselines every published method should beat (@fb/baselines), by id. */
export const baselineIds: ReadonlySet<string> = new Set(
  [exhaustiveCounterfactual, valueDisparity, randomFinder].map((d) => d.id),
);

export function findMethod(id: string): Detector<object> {
  const found = methodRegistry.find((m) => m.id === id);
  if (!found) {
    throw new Error(`unknown method "${id}" (registered: ${methodRegistry.map((m) => m.id).join(', ')})`);
  }
  return found;
}
