import type { Detector } from '@fb/core';
import { aequitas } from '@fb/individual-aequitas';
import { biasScan } from '@fb/subgroup-biasscan';
// @new-method:imports (tools/create-method inserts new imports above this line)

/**
 * Every method the study can run, by id. `pnpm new:method` adds new packages here; a study config
 * names methods by these ids.
 */
export const methodRegistry: readonly Detector<object>[] = [
  aequitas as unknown as Detector<object>,
  biasScan as unknown as Detector<object>,
  // @new-method:entries (tools/create-method inserts new entries above this line)
];

export function findMethod(id: string): Detector<object> {
  const found = methodRegistry.find((m) => m.id === id);
  if (!found) {
    throw new Error(`unknown method "${id}" (registered: ${methodRegistry.map((m) => m.id).join(', ')})`);
  }
  return found;
}
