import { CheckStatus, type CounterfactualChecker, type RunController } from '@fb/core';
import type { Neighbours } from './neighbours.js';
import type { LocalLimitUnit } from './options.js';
import type { RowQueue } from './queue.js';
import type { TestedSet } from './tested-set.js';

export interface LocalPhaseSettings {
  /** Total local budget, in `unit`s. */
  limit: number;
  unit: LocalLimitUnit;
  batchSize: number;
}

export interface LocalPhaseResult {
  tested: number;
  discriminatory: number;
  /** Queue items whose neighbourhood was walked. */
  expanded: number;
  /** Neighbours skipped because they had been tested already. */
  duplicatesSkipped: number;
  /** Neighbours skipped because they fall outside the domain. */
  outOfDomain: number;
}

/**
 * KOSEI's local phase: a breadth-first walk over the queue of discriminatory inputs. Each item's
 * ±1 neighbours in every non-protected attribute are evaluated unless outside the domain or tested
 * already; discriminatory ones are appended to the queue. The limit is checked before each item.
 *
 * Several queue items are expanded into one batch (one model query). Discoveries go to the back of
 * the queue, behind every item of the batch, and the limit check counts the neighbours already
 * pending, so the walk is the same as expanding one item at a time.
 */
export async function runLocalPhase(
  neighbours: Neighbours,
  checker: CounterfactualChecker,
  ctl: RunController,
  tested: TestedSet,
  queue: RowQueue,
  settings: LocalPhaseSettings,
): Promise<LocalPhaseResult> {
  const { d, movable } = neighbours;
  const { limit, unit, batchSize } = settings;
  const buffer = new Float64Array((batchSize + neighbours.maxPerInput) * d);
  const result: LocalPhaseResult = {
    tested: 0,
    discriminatory: 0,
    expanded: 0,
    duplicatesSkipped: 0,
    outOfDomain: 0,
  };
  const spent = (pending: number) => (unit === 'evaluations' ? result.tested + pending : result.expanded);
  let reachedLimit = false;
  while (!reachedLimit && queue.head < queue.length) {
    if (await ctl.checkpoint({ phase: 'local', done: spent(0), total: limit })) break;
    let m = 0;
    while (m < batchSize && queue.head < queue.length) {
      if (spent(m) >= limit) {
        reachedLimit = true;
        break;
      }
      const item = queue.row(queue.head++);
      result.expanded++;
      for (let k = 0; k < movable.length; k++) {
        const j = movable[k]!;
        for (const direction of [-1, 1] as const) {
          const v = neighbours.step(j, item[j]!, direction);
          if (Number.isNaN(v)) {
            result.outOfDomain++;
            continue;
          }
          const off = m * d;
          buffer.set(item, off);
          buffer[off + j] = v;
          if (tested.claim(buffer, off)) m++;
          else result.duplicatesSkipped++;
        }
      }
    }
    if (m === 0) continue;
    const { status } = checker.check(buffer.subarray(0, m * d));
    for (let i = 0; i < m; i++) {
      if (status[i] === CheckStatus.Skipped) {
        ctl.shouldStop(); // records which budget ran out
        return result;
      }
      result.tested++;
      if (status[i] === CheckStatus.Discriminatory) {
        result.discriminatory++;
        queue.push(buffer, i * d);
      }
    }
  }
  return result;
}
