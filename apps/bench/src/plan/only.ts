import type { RunStudyOptions } from '../run/run-study.js';

const onlyKeys = ['method', 'label', 'dataset', 'model'] as const;

/** `--only key=a,b` arguments (repeatable) as `runStudy`'s `only` filter. */
export function parseOnly(values: string[]): NonNullable<RunStudyOptions['only']> {
  const only: NonNullable<RunStudyOptions['only']> = {};
  for (const v of values) {
    const eq = v.indexOf('=');
    const key = v.slice(0, eq) as (typeof onlyKeys)[number];
    if (eq < 0 || !onlyKeys.includes(key) || eq === v.length - 1) {
      throw new Error(`--only ${v}: expected ${onlyKeys.map((k) => `${k}=...`).join(', ')}`);
    }
    only[key] = [...(only[key] ?? []), ...v.slice(eq + 1).split(',')];
  }
  return only;
}
