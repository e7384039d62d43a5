import type { MeanInterval } from '@fb/eval';
import type { partition } from '../../analyse/analysis.js';
import type { SkillRow } from '../../analyse/skill.js';
import type { Study } from '../../plan/config.js';
import type { CellRecord } from '../../run/record.js';
import { num, withInterval } from '../tables.js';

/** What every section starts from; `buildReport` prepares it once. */
export interface ReportInputs {
  study: Study;
  /** The stored records in the study's plan order (see `inPlanOrder`). */
  records: CellRecord[];
  /** The records by outcome and kind of data: done, biased, null, real, failed. */
  parts: ReturnType<typeof partition>;
  /** Plan labels in the order they first appear: the order of methods in tables and figures. */
  planOrder: string[];
  /** Skill against the floors at the published defaults. */
  skillRows: SkillRow[];
}

/** A share as a whole percentage, or a dash. */
export const pct = (v: number) => (Number.isFinite(v) ? `${(100 * v).toFixed(0)}%` : '–');

/** A measure with its chance level: `0.41 [0.30, 0.52] (chance 0.05)`. */
export const vsChance = (m: MeanInterval, chance: MeanInterval) =>
  Number.isFinite(m.mean) ? `${withInterval(m)} (${num(chance.mean, 2)})` : '–';

/** The distinct strings, in first-seen order. */
export const unique = (xs: readonly string[]) => [...new Set(xs)];
